// One Playwright browser server (chromium.launchServer()) for the browser checks of a test
// run: each qa-check run under test connects to it (--browser-endpoint) instead of
// launching its own Chromium, and gets a fresh browser context per check as always.
// shared/testkit/src/browser_server.rs starts it under a lock (testkit's once.rs); this
// script publishes the endpoint in `file` (written whole through a rename, mode 0600: its
// path is the server's secret) and stops, removing the file, once `owner` (the test
// runner whose tests share it) has exited, once `file` was not touched (each test that
// takes the endpoint touches it) for IDLE_MS, or when the browser dies.
// Usage: node serve.mjs '{"module","executable","args","file","owner"}'
import { renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const IDLE_MS = 60000;
const POLL_MS = 1000;
const config = JSON.parse(process.argv[2]);
const playwright = await import(pathToFileURL(config.module).href);
const server = await playwright.chromium.launchServer({
  executablePath: config.executable,
  headless: true,
  args: config.args,
  host: '127.0.0.1',
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    unlinkSync(config.file);
  } catch {
    // Already gone: nothing to withdraw.
  }
  await server.close().catch(() => {});
  process.exit(0);
}
server.process().on('exit', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const written = `${config.file}.${process.pid}`;
writeFileSync(written, JSON.stringify({ endpoint: server.wsEndpoint(), pid: process.pid }), { mode: 0o600 });
renameSync(written, config.file);

function ownerAlive() {
  try {
    process.kill(config.owner, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function idle() {
  try {
    return Date.now() - statSync(config.file).mtimeMs > IDLE_MS;
  } catch {
    return true;
  }
}

setInterval(() => {
  if (!ownerAlive() || idle()) stop();
}, POLL_MS);
