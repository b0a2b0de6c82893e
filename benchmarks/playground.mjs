// Measures the playground page in headless Chromium for benchmarks/playground.py: the time
// from navigation to the first findings shown, on a cold and then a warm browser cache (the
// same browser profile, the page opened again), and the time the page's lint call takes on
// a pasted config (window.tritonlintPlayground.timings: `check`, the call into tritonlint, and
// `lint`, the whole update: the call, the findings listed, the text coloured and squiggled).
//
// env: PAGE_URL, PLAYWRIGHT_CORE, CHROMIUM; CONFIG (a file: the config to lint); STARTS and
//      LINTS (how many of each); prints one JSON object.
import fs from "node:fs";
import { createRequire } from "node:module";

const { chromium } = createRequire(import.meta.url)(process.env.PLAYWRIGHT_CORE);
const config = fs.readFileSync(process.env.CONFIG, "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});
const context = await browser.newContext();
const ready = (page) =>
  page.waitForFunction(() => window.tritonlintPlayground?.linted != null, null, { timeout: 120000 });

const starts = [];
let page;
for (let i = 0; i < Number(process.env.STARTS); i++) {
  await page?.close();
  page = await context.newPage();
  const started = Date.now();
  await page.goto(process.env.PAGE_URL);
  await ready(page);
  const timings = await page.evaluate(() => window.tritonlintPlayground.timings);
  starts.push({ total: Date.now() - started, ...timings });
}
const lints = [];
for (let i = 0; i < Number(process.env.LINTS); i++) {
  // Each text differs (a comment line's number), so each is linted anew.
  const text = `${config}# ${i}\n`;
  await page.fill("#editor", text);
  await page.waitForFunction((t) => window.tritonlintPlayground.linted === t, text);
  lints.push(await page.evaluate(() => window.tritonlintPlayground.timings));
}
const findings = await page.$$eval("#findings li", (items) => items.length);
console.log(JSON.stringify({ starts, lints, findings }));
await browser.close();
