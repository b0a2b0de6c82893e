// Renders tritonlint graph's output with the real renderers, in headless Chromium, and
// writes back what they drew (tests/graph/test_renderers.py judges it):
//   - Mermaid text: mermaid.parse, then mermaid.render, with Mermaid's own bundled script
//     (dist/mermaid.min.js) put into a blank page; the SVG and the labels it laid out.
//   - an HTML page (--format html): loaded as it is, the text of its SVG as Chromium lays it
//     out, and a screenshot of the picture where asked.
// Every request a page makes is recorded: these pages must need none.
//
//   node render.mjs JOB.json RESULT.json
//
// JOB.json: {"mermaid": [{"name", "text"}], "html": [{"name", "page", "screenshot"?}]}
// Environment: MODULES the folder holding mermaid and playwright-core (npm ci of this
// folder's lock file), CHROMIUM the browser.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [jobFile, resultFile] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(jobFile, 'utf8'));
const { chromium } = createRequire(import.meta.url)(path.join(process.env.MODULES, 'playwright-core'));
const MERMAID = path.join(process.env.MODULES, 'mermaid', 'dist', 'mermaid.min.js');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});

/** A page that records every request it makes, and every error its scripts throw. */
async function newPage() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = { requests: [], errors: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  return { page, seen };
}

async function renderMermaid(cases) {
  const { page, seen } = await newPage();
  await page.setContent('<!DOCTYPE html><html><body><div id="out"></div></body></html>');
  await page.addScriptTag({ path: MERMAID });
  await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
  const results = [];
  for (const [index, { name, text }] of cases.entries()) {
    const drawn = await page.evaluate(
      async ({ index, text }) => {
        const mermaid = window.mermaid;
        let parsed;
        try {
          parsed = await mermaid.parse(text);
        } catch (error) {
          return { parseError: String(error?.message ?? error) };
        }
        let svg;
        try {
          ({ svg } = await mermaid.render(`graph${index}`, text));
        } catch (error) {
          return { diagramType: parsed.diagramType, renderError: String(error?.message ?? error) };
        }
        const out = document.getElementById('out');
        out.innerHTML = svg;
        // A label's lines as laid out: HTML labels (in a foreignObject) by their innerText,
        // SVG text by its tspans.
        const lines = (element) => {
          const html = element.querySelector('foreignObject div, foreignObject span');
          if (html) return html.innerText.split('\n').map((line) => line.trim()).filter(Boolean);
          const spans = [...element.querySelectorAll('text > tspan')];
          return spans.length ? spans.map((s) => s.textContent.trim()) : [element.textContent.trim()];
        };
        const nodes = [...out.querySelectorAll('g.node')].map((node) => ({
          id: node.id,
          classes: [...node.classList],
          lines: lines(node),
          width: node.getBoundingClientRect().width,
        }));
        const edges = [...out.querySelectorAll('g.edgeLabel')]
          .map((label) => lines(label).join(' '))
          .filter(Boolean);
        const clusters = [...out.querySelectorAll('g.cluster')].map((cluster) => ({
          id: cluster.id,
          classes: [...cluster.classList],
          title: lines(cluster.querySelector('.cluster-label') ?? cluster).join(' '),
        }));
        const paths = [...out.querySelectorAll('path.flowchart-link')].map((p) => ({
          id: p.id,
          style: p.getAttribute('style') ?? '',
        }));
        out.innerHTML = '';
        return { diagramType: parsed.diagramType, svg, nodes, edges, clusters, paths };
      },
      { index, text },
    );
    results.push({ name, ...drawn });
  }
  await page.close();
  return { results, ...seen };
}

async function renderHtml({ name, page: html, screenshot }) {
  const { page, seen } = await newPage();
  await page.setContent(html, { waitUntil: 'load' });
  // Each text of the picture as laid out: its lines, where each begins and ends, and the
  // room it has: its box's or cluster's rectangle, or for an arrow's label its ends.
  const texts = await page.evaluate(() =>
    [...document.querySelectorAll('svg text')].map((text) => {
      const group = text.closest('g');
      const rect = group?.querySelector(':scope > rect');
      const path = group?.querySelector(':scope > path')?.getAttribute('d');
      const ends = path?.match(/-?[\d.]+/g)?.map(Number);
      const spans = [...text.querySelectorAll('tspan')];
      return {
        group: group ? [...group.classList] : [],
        lines: (spans.length ? spans : [text]).map((span) => {
          const last = span.getNumberOfChars() - 1;
          const [first, end] = [span.getExtentOfChar(0), span.getExtentOfChar(last)];
          return { text: span.textContent, left: first.x, right: end.x + end.width };
        }),
        room: rect
          ? { left: rect.x.baseVal.value, right: rect.x.baseVal.value + rect.width.baseVal.value }
          : ends
            ? { left: ends[0], right: ends[ends.length - 2] }
            : null,
      };
    }),
  );
  if (screenshot) {
    // The whole page (the picture, and the findings listed under it), as wide as the picture.
    const width = await page.evaluate(() => document.querySelector('svg').getBoundingClientRect().right);
    await page.setViewportSize({ width: Math.ceil(width) + 16, height: 400 });
    await page.screenshot({ path: screenshot, fullPage: true });
  }
  await page.close();
  return { name, texts, ...seen };
}

const result = { mermaid: await renderMermaid(job.mermaid ?? []), html: [] };
for (const item of job.html ?? []) result.html.push(await renderHtml(item));
await browser.close();
fs.writeFileSync(resultFile, JSON.stringify(result, null, 1));
