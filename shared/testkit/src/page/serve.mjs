// One headless Chromium for many report pages: listens on a Unix socket, and for each
// connection reads one JSON line ({"file","shot"?,"filter"?}), opens that page in a new
// browser context (look.mjs) and writes one JSON line back ({"ok": result} or
// {"error": message}). Launching Chromium costs more than looking at a page, and the
// report-page tests of one run open dozens (shared/testkit/src/page.rs starts it under a
// lock). It exits once no page was asked for during IDLE_MS, or when the browser dies.
// Usage: node serve.mjs '{"module","executable","socket"}'
import { unlinkSync } from 'node:fs';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { look } from './look.mjs';

const IDLE_MS = 20000;
const config = JSON.parse(process.argv[2]);
const playwright = await import(pathToFileURL(config.module).href);
const browser = await playwright.chromium.launch({
  executablePath: config.executable,
  headless: true,
  args: ['--headless', '--no-sandbox'],
});
browser.on('disconnected', () => process.exit(1));

let busy = 0;
let idle;
const stop = () => {
  server.close();
  browser.close().finally(() => process.exit(0));
};
const rest = () => {
  clearTimeout(idle);
  if (busy === 0) idle = setTimeout(stop, IDLE_MS);
};

const server = net.createServer((socket) => {
  busy += 1;
  clearTimeout(idle);
  let line = '';
  socket.setEncoding('utf8');
  socket.on('data', async (chunk) => {
    line += chunk;
    const end = line.indexOf('\n');
    if (end < 0) return;
    const request = line.slice(0, end);
    line = '';
    let answer;
    try {
      answer = { ok: await look(browser, JSON.parse(request)) };
    } catch (e) {
      answer = { error: String(e && e.stack ? e.stack : e) };
    }
    socket.end(JSON.stringify(answer) + '\n');
  });
  socket.on('close', () => {
    busy -= 1;
    rest();
  });
  socket.on('error', () => {});
});
// A socket left by a server that died is in the way; page.rs starts this one under its lock.
try {
  unlinkSync(config.socket);
} catch {
  // None there.
}
server.listen(config.socket, rest);
