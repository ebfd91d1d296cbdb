// What a test sees of one report.html, in a browser already launched: every request the
// page made, dialogs, console messages, whether a page-level flag was set, the elements of
// the report, and what the status filters leave visible. Shared by open.mjs (a browser of
// its own) and serve.mjs (one browser for many pages).
import { pathToFileURL } from 'node:url';

export async function look(browser, config) {
  const result = { requests: [], dialogs: [], console: [], popups: 0 };
  let context;
  try {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('request', (r) => result.requests.push(r.url()));
    page.on('dialog', async (d) => {
      result.dialogs.push(d.message());
      await d.dismiss();
    });
    page.on('console', (m) => result.console.push(`${m.type()}: ${m.text()}`));
    context.on('page', () => (result.popups += 1));
    const url = pathToFileURL(config.file).href;
    result.url = url;
    await page.goto(url, { waitUntil: 'load' });
    // Give anything the page might have scheduled a moment to run.
    await page.waitForTimeout(300);
    Object.assign(result, await page.evaluate(() => {
      const all = (sel) => [...document.querySelectorAll(sel)];
      const visible = (el) => el.getClientRects().length > 0;
      const txt = (el) => (el ? el.textContent : null);
      return {
        pwned: window.__pwned ?? null,
        title: document.title,
        csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
        verdict: txt(document.querySelector('#verdict h1')),
        banner: document.querySelector('#verdict')?.className ?? null,
        bannerColor: document.querySelector('#verdict') ? getComputedStyle(document.querySelector('#verdict')).backgroundColor : null,
        bannerText: txt(document.querySelector('#verdict')),
        criteria: all('[data-criterion]').map((el) => ({ id: el.dataset.criterion, class: el.className, text: el.textContent })),
        checks: all('[data-check]').map((el) => ({ id: el.dataset.check, class: el.className, text: el.textContent })),
        scenarios: all('.scenario').map((el) => ({ class: el.className, text: el.textContent })),
        images: all('img').map((el) => ({ src: el.src.slice(0, 30), width: el.naturalWidth, height: el.naturalHeight, moment: el.closest('[data-moment]')?.dataset.moment })),
        missingShots: all('.shot-missing').map((el) => el.textContent),
        links: all('a').map((el) => ({ href: el.getAttribute('href'), text: el.textContent })),
        marks: { neutralized: all('mark.neutralized').length, redacted: all('mark.redacted').length },
        scripts: all('script').length,
        styled: all('[style]').length,
        handlers: all('*').filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
        styles: all('style').length,
        text: document.body.textContent,
        visibleCards: all('.card, .scenario').filter(visible).length,
      };
    }));
    if (config.filter) {
      await page.click(`label[for="f-${config.filter}"]`);
      result.filtered = await page.evaluate(() =>
        [...document.querySelectorAll('.card, .scenario')]
          .filter((el) => el.getClientRects().length > 0)
          .map((el) => el.className));
    }
    if (config.shot) {
      if (config.filter) await page.click('label[for="f-all"]');
      await page.screenshot({ path: config.shot, fullPage: true });
    }
  } finally {
    if (context) await context.close();
  }
  return result;
}
