// qa-check's browser driver: one headless browser per qa-check run through an installed
// Playwright module, a fresh browser context (no cookies, storage, cache or service workers
// shared) for each check's page, probing the page's WebMCP API (document.modelContext). Run
// by browser.rs as `node --input-type=module -e <this file>`, with TMPDIR its private
// folder (Playwright makes the browser's profile there). Protocol: line-delimited JSON, one
// reply line per request line on stdout; nothing else is ever written to stdout.
//
//   {"module","executable","args","timeoutMs"} -> {"ok":true}
//       | {"ok":false,"stage":"module"|"launch","error":"..."}
//   {"module","endpoint","timeoutMs"} -> {"ok":true} | {"ok":false,"stage":"module"|"connect","error":"..."}
//     Connects to a running Playwright browser server instead of launching one; closing
//     then disconnects (the contexts this driver made are closed, the server runs on).
//   {"op":"open","url","timeoutMs","guard"?} -> {"ok":true}
//       | {"ok":false,"stage":"context"|"guard"|"navigate","error":"..."}
//     A new context and page on url (the previous context, if any, is closed first).
//     guard: {"write":[{"method","url","body"}],"allow":[...]}: every request of the
//     context matching a write signature and no allow signature is aborted and remembered.
//   {"op":"leave"}                     -> {"ok":true} once the page's context is closed
//   {"op":"tools"}                     -> {"ok":true,"tools":...} | {"ok":false,"unsupported":"..."}
//   {"op":"observe","selector":"css"}  -> {"ok":true,"text":"..."} | {"ok":false,"error":"..."}
//   {"op":"call","tool":"name","input":{...}}
//       -> {"ok":true,"result":...} | {"ok":true,"thrown":"..."} | {"ok":false,"unsupported":"..."}
//   {"op":"aborted"}                   -> {"ok":true,"aborted":[{"method","url"}]} (this page's)
//   {"op":"screenshot","maxBytes":n,"timeoutMs":n,"hide":["..."]?}
//       -> {"ok":true,"png":"<base64>"} | {"ok":true,"oversize":bytes}
//        | {"ok":true,"shown":true} (the page's text holds a `hide` string: no picture taken)
//        | {"ok":false,"error":"..."}
//     A PNG of the viewport (VIEWPORT), caret hidden, animations stopped; over maxBytes it
//     is dropped here, so the reply line stays far below browser.rs's MAX_REPLY_BYTES.
//   {"op":"close"}, stdin EOF, SIGTERM  -> the browser is closed and the driver exits 0.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

// Console output of this process (Playwright's included) is noise on stdout: send it to stderr.
console.log = console.info = console.debug = console.error;

const reply = (value) => process.stdout.write(JSON.stringify(value) + '\n');
const message = (error) => String((error && error.message) || error).split('\n')[0];

// The page's viewport: what a screenshot shows (a PNG of it is at most this size).
const VIEWPORT = { width: 1280, height: 800 };

let browser = null;
let context = null;
let closing = null;
// Requests the write guard aborted on the current page, in order.
let aborted = [];

// Closes the browser once; a second request waits for the first.
function close() {
  closing ??= (browser ? browser.close().catch(() => {}) : Promise.resolve());
  return closing;
}

// Closes the current page's context, if any.
async function leave() {
  const current = context;
  context = null;
  aborted = [];
  if (current) {
    await current.close();
  }
  return { ok: true };
}

async function shutdown() {
  await close();
  process.exit(0);
}

process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

// The CommonJS twin of `module` when it is its package's ES module entry and the package
// names a CommonJS one for the same export ("exports": {".": {"import", "require"}}), as
// Playwright's index.mjs and index.js are; else null. Importing the ES one makes node scan
// the 7 MB bundles index.js re-exports for export names: requiring the twin saves a third
// of the module's load (about 0.3 s of CPU per check).
function commonJsTwin(module) {
  const dir = dirname(module);
  try {
    const exported = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports?.['.'];
    if (typeof exported?.import !== 'string' || typeof exported.require !== 'string') {
      return null;
    }
    return resolve(dir, exported.import) === resolve(module) ? resolve(dir, exported.require) : null;
  } catch {
    return null;
  }
}

async function load(module) {
  const twin = commonJsTwin(module);
  return twin ? createRequire(twin)(twin) : import(pathToFileURL(module).href);
}

async function launch(config) {
  let playwright;
  try {
    playwright = await load(config.module);
  } catch (error) {
    return { ok: false, stage: 'module', error: message(error) };
  }
  const chromium = playwright.chromium ?? playwright.default?.chromium;
  if (config.endpoint) {
    if (!chromium || typeof chromium.connect !== 'function') {
      return { ok: false, stage: 'module', error: 'the module exports no chromium.connect' };
    }
    try {
      browser = await chromium.connect(config.endpoint, { timeout: config.timeoutMs });
    } catch (error) {
      return { ok: false, stage: 'connect', error: message(error) };
    }
    return { ok: true };
  }
  if (!chromium || typeof chromium.launch !== 'function') {
    return { ok: false, stage: 'module', error: 'the module exports no chromium.launch' };
  }
  try {
    browser = await chromium.launch({
      executablePath: config.executable,
      headless: true,
      args: config.args,
      timeout: config.timeoutMs,
      // This driver closes the browser itself on signals and reports how.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    return { ok: false, stage: 'launch', error: message(error) };
  }
  return { ok: true };
}

async function open(request) {
  await leave();
  try {
    context = await browser.newContext({
      viewport: VIEWPORT,
      // A service worker's requests would bypass the write guard's routing.
      serviceWorkers: request.guard ? 'block' : 'allow',
    });
  } catch (error) {
    return { ok: false, stage: 'context', error: message(error) };
  }
  if (request.guard) {
    try {
      await guard(request.guard);
    } catch (error) {
      return { ok: false, stage: 'guard', error: message(error) };
    }
  }
  try {
    const page = await context.newPage();
    const response = await page.goto(request.url, { timeout: request.timeoutMs, waitUntil: 'load' });
    // An error page is not the page under test.
    if (response && response.status() >= 400) {
      return { ok: false, stage: 'navigate', error: `HTTP status ${response.status()}` };
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, stage: 'navigate', error: message(error) };
  }
}

// Compiles a signature: its regular expressions as the profile's JavaScript patterns.
function compiled(signature) {
  return {
    method: String(signature.method || '*').toUpperCase(),
    url: new RegExp(signature.url),
    body: signature.body == null ? null : new RegExp(signature.body),
  };
}

function matches(signature, request) {
  if (signature.method !== '*' && signature.method !== request.method().toUpperCase()) {
    return false;
  }
  if (!signature.url.test(request.url())) {
    return false;
  }
  if (signature.body) {
    const body = request.postData();
    return body != null && signature.body.test(body);
  }
  return true;
}

// Routes every request of the context: a write (a write signature matches, no allow
// signature does) is aborted and remembered; anything else goes on unchanged.
async function guard(config) {
  const writes = config.write.map(compiled);
  const allows = config.allow.map(compiled);
  await context.route('**/*', async (route) => {
    const request = route.request();
    const write = writes.some((s) => matches(s, request)) && !allows.some((s) => matches(s, request));
    if (write) {
      aborted.push({ method: request.method(), url: request.url() });
      await route.abort('blockedbyclient');
    } else {
      await route.continue();
    }
  });
}

// Runs in the page: the WebMCP API, or why it is not there.
function api() {
  const context = document.modelContext;
  if (context === undefined || context === null) {
    return { unsupported: 'document.modelContext is absent' };
  }
  for (const method of ['getTools', 'executeTool']) {
    if (typeof context[method] !== 'function') {
      return { unsupported: `document.modelContext.${method} is not a function` };
    }
  }
  return { context };
}

// Runs in the page: what getTools resolved to.
async function listTools(api) {
  const { context, unsupported } = api();
  if (unsupported) {
    return { unsupported };
  }
  try {
    return { value: await context.getTools() };
  } catch (error) {
    return { unsupported: `getTools threw: ${(error && error.message) || error}` };
  }
}

// Runs in the page: what executeTool resolved to, or what it threw.
async function callTool(api, tool, input) {
  const { context, unsupported } = api();
  if (unsupported) {
    return { unsupported };
  }
  try {
    // Chromium's executeTool takes the listed tool itself, not its name.
    const tools = await context.getTools();
    const listed = Array.isArray(tools) ? tools.find((t) => t && t.name === tool) : undefined;
    if (!listed) {
      return { thrown: `getTools lists no tool named ${JSON.stringify(tool)}` };
    }
    return { result: await context.executeTool(listed, input) };
  } catch (error) {
    return { thrown: String((error && error.message) || error) };
  }
}

// Runs in the page: the text of the first element `selector` matches.
function textOf(api, selector) {
  try {
    const element = document.querySelector(selector);
    return element ? { text: element.innerText } : { error: `no element matches ${selector}` };
  } catch (error) {
    return { error: `invalid selector ${selector}: ${(error && error.message) || error}` };
  }
}

// Evaluates `fn(api, ...args)` in the page's main world. Sent as source text: an evaluation
// through the DevTools protocol is not subject to the page's Content-Security-Policy, where
// an eval() in the page would be.
function inPage(fn, ...args) {
  const values = args.map((arg) => JSON.stringify(arg) ?? 'undefined');
  return context.pages()[0].evaluate(`(${fn})(${api}, ${values.join(', ')})`);
}

async function tools() {
  const listed = await inPage(listTools);
  if (listed.unsupported) {
    return { ok: false, unsupported: listed.unsupported };
  }
  let value = listed.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      // Not JSON: the string itself is what getTools returned.
    }
  }
  return { ok: true, tools: value };
}

async function call(tool, input) {
  const done = await inPage(callTool, tool, input);
  if (done.unsupported) {
    return { ok: false, unsupported: done.unsupported };
  }
  if ('thrown' in done) {
    return { ok: true, thrown: done.thrown };
  }
  return { ok: true, result: done.result };
}

async function observe(selector) {
  const seen = await inPage(textOf, selector);
  return 'text' in seen ? { ok: true, text: seen.text } : { ok: false, error: seen.error };
}

// The most form fields whose values are read for hidden strings.
const MAX_FIELDS = 100;

// Whether the page's text (its title, rendered text and form fields' values) holds any of
// `hidden`. Read through Playwright's locators, which run in an isolated world: the
// page's own script can neither see the hidden strings (they never enter the page) nor
// fake the text by patching prototypes.
async function shows(hidden, timeout) {
  const page = context.pages()[0];
  const texts = [await page.title(), await page.locator('html').innerText({ timeout })];
  const fields = page.locator('input, textarea');
  const count = Math.min(await fields.count(), MAX_FIELDS);
  for (let i = 0; i < count; i += 1) {
    texts.push(await fields.nth(i).inputValue({ timeout }).catch(() => ''));
  }
  return texts.some((text) => hidden.some((h) => text.includes(h)));
}

async function screenshot(request) {
  const hidden = Array.isArray(request.hide) ? request.hide.filter((h) => h) : [];
  let png;
  try {
    if (hidden.length && (await shows(hidden, request.timeoutMs))) {
      return { ok: true, shown: true };
    }
    png = await context.pages()[0].screenshot({
      type: 'png',
      fullPage: false,
      caret: 'hide',
      animations: 'disabled',
      timeout: request.timeoutMs,
    });
  } catch (error) {
    return { ok: false, error: message(error) };
  }
  if (png.length > request.maxBytes) {
    return { ok: true, oversize: png.length };
  }
  return { ok: true, png: png.toString('base64') };
}

async function handle(request) {
  switch (request.op) {
    case 'tools':
      return tools();
    case 'call':
      return call(request.tool, request.input);
    case 'observe':
      return observe(request.selector);
    case 'open':
      return open(request);
    case 'leave':
      return leave();
    case 'aborted':
      return { ok: true, aborted };
    case 'screenshot':
      return screenshot(request);
    default:
      return { ok: false, error: `unknown op ${JSON.stringify(request.op)}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let configured = false;
for await (const line of lines) {
  if (!line.trim()) {
    continue;
  }
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    reply({ ok: false, error: `unreadable request: ${message(error)}` });
    continue;
  }
  if (!configured) {
    configured = true;
    const launched = await launch(request);
    reply(launched);
    if (!launched.ok) {
      break;
    }
    continue;
  }
  if (request.op === 'close') {
    break;
  }
  try {
    reply(await handle(request));
  } catch (error) {
    // The page went away, crashed or navigated mid-request.
    reply({ ok: false, error: message(error) });
  }
}
await shutdown();
