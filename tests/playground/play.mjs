// Drives the playground page in headless Chromium as a person would and writes down what it
// shows: the findings listed and squiggled for each pasted config, the editor's text after "Format" and
// after "Apply fixes", the share link and what it opens, the start-up time, a screenshot of
// the example it opens with.
// test_playground.py serves the page, runs this and judges observations.json; this script
// asserts nothing itself, it only waits (each wait bounded) for the page to answer.
//
// env: PAGE_URL         the page, served from loopback
//      CASES            a JSON file: [{name, text}], the configs to paste
//      SHARE            JSON: {text, release}, what to share
//      FOLDERS          a JSON file: [folder], the folders to open (the multi-file mode);
//                       FOLDER_SHOT the name of the one in the screenshot of that mode
//      TREES            a JSON file: {ensemble, plain} configs to paste for the graph of one
//                       config; pasted: [{name, text}] trees in the "==>" form; bad: [{name,
//                       text}] trees the page refuses; share: {name, release, file} the tree
//                       to share; binary: a folder with a binary file; drop: a folder to drop
//      OUT_DIR          observations.json, playground.png, browser-console.log
//      PLAYWRIGHT_CORE  the playwright-core package folder; CHROMIUM the browser
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const { chromium } = createRequire(import.meta.url)(process.env.PLAYWRIGHT_CORE);
const OUT = process.env.OUT_DIR;
const cases = JSON.parse(fs.readFileSync(process.env.CASES, "utf8"));
const share = JSON.parse(process.env.SHARE);
const folders = JSON.parse(fs.readFileSync(process.env.FOLDERS, "utf8"));
const trees = JSON.parse(fs.readFileSync(process.env.TREES, "utf8"));
const WAIT = 60000;
fs.mkdirSync(OUT, { recursive: true });

const seen = { errors: {}, findings: {}, squiggles: {}, formatted: {}, fixed: {}, folders: {}, trees: {}, bad_trees: {} };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--no-first-run"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
await context.grantPermissions(["clipboard-read", "clipboard-write"]);
const consoleLines = [];
const requests = [];
context.on("request", (request) => requests.push(request.url()));

async function open(url) {
  const page = await context.newPage();
  page.on("console", (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
  page.on("pageerror", (e) => consoleLines.push(`[pageerror] ${e.message}`));
  const started = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.tritonlintPlayground?.linted != null, null, { timeout: WAIT });
  return { page, startup: Date.now() - started };
}

/** Types `text` into the editor and waits until the page has linted exactly it. */
async function paste(page, text) {
  await page.fill("#editor", text);
  await page.waitForFunction(
    (expected) => window.tritonlintPlayground.linted === expected, text, { timeout: WAIT });
}

const shownFindings = (page) =>
  page.$$eval("#findings li", (items) =>
    items.map((item) => ({
      ...(item.querySelector(".path") ? { path: item.querySelector(".path").textContent } : {}),
      place: item.querySelector(".place").textContent,
      code: item.querySelector(".code").textContent,
      url: item.querySelector(".code").getAttribute("href"),
      message: item.querySelector(".message").textContent,
      severity: item.className,
    })));

/** The gutter's numbers with their classes, and for each squiggle the number beside it:
 * the number whose box is level with the squiggled text. */
const gutterLines = (page) =>
  page.evaluate(() => {
    const numbers = [...document.querySelectorAll("#gutter span")];
    const level = (piece) => {
      const top = piece.getBoundingClientRect().top;
      const beside = numbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 2);
      return beside ? beside.textContent.trim() : null;
    };
    return {
      numbers: numbers.map((n) => [n.textContent.trim(), n.className]),
      besideSquiggles: [...document.querySelectorAll("#backdrop .squiggle")].map(level),
    };
  });

/** The text under each squiggle, in the order of the findings they mark; and whether the
 * coloured layer shows the editor's text. */
const squiggles = (page) =>
  page.evaluate(() => {
    const marks = {};
    for (const piece of document.querySelectorAll("#backdrop [data-marks]")) {
      for (const index of piece.dataset.marks.split(" ")) {
        marks[index] = (marks[index] ?? "") + piece.textContent;
      }
    }
    const layer = document.getElementById("backdrop").textContent;
    return {
      texts: Object.keys(marks).sort((a, b) => a - b).map((index) => marks[index]),
      same_text: layer === `${document.getElementById("editor").value}\n`,
    };
  });

/** Pastes `text`, clicks `button`, and returns the editor's text once the page has linted it
 * (or, where the button left the text as it was, the status line's message too). */
async function press(page, text, button) {
  await paste(page, text);
  await page.click(button);
  await page.waitForFunction(
    () => window.tritonlintPlayground.linted === document.getElementById("editor").value);
  return {
    text: await page.inputValue("#editor"),
    status: await page.textContent("#status"),
  };
}

/** Runs `act` and waits until the page has checked something more. */
async function checked(page, act) {
  const before = await page.evaluate(() => window.tritonlintPlayground.lints);
  await act();
  await page.waitForFunction((n) => window.tritonlintPlayground.lints > n, before, { timeout: WAIT });
}

/** The boxes and arrow labels of the graph drawn, from the frame's page. */
const drawnGraph = (page) =>
  page.$eval("#graph", (frame) => {
    if (frame.hidden) return null;
    const drawn = new DOMParser().parseFromString(frame.srcdoc, "text/html");
    return {
      boxes: [...drawn.querySelectorAll("g.node")].map((box) => ({
        classes: box.getAttribute("class"),
        lines: [...box.querySelectorAll("tspan")].map((line) => line.textContent),
      })),
      arrows: [...drawn.querySelectorAll("g.edge")].map((arrow) => ({
        classes: arrow.getAttribute("class"),
        label: arrow.querySelector("text")?.textContent ?? "",
      })),
    };
  });

/** What the multi-file mode shows: its files, the file shown, findings, note, texts. */
const folderShown = async (page) => ({
  files: await page.$$eval("#file option", (options) => options.map((o) => o.value)),
  shown: await page.inputValue("#file"),
  release: await page.inputValue("#release"),
  findings: await shownFindings(page),
  note: (await page.isHidden("#note")) ? null : await page.textContent("#note"),
  texts: await page.evaluate(() => window.tritonlintPlayground.texts()),
  folders: await page.evaluate(() => window.tritonlintPlayground.folders()),
  status: await page.textContent("#status"),
});

/** Pastes a tree into the editor (in the one-config mode) and waits for its check. */
async function pasteTree(page, text) {
  if (await page.isVisible("#single")) await checked(page, () => page.click("#single"));
  await checked(page, () => page.fill("#editor", text));
}

async function step(name, body) {
  try {
    await body();
  } catch (error) {
    seen.errors[name] = String(error.stack || error);
    console.log(`step ${name} failed: ${error}`);
  }
}

const url = process.env.PAGE_URL;
let page;
await step("start", async () => {
  const opened = await open(url);
  page = opened.page;
  seen.startup_ms = opened.startup;
  seen.timings = await page.evaluate(() => window.tritonlintPlayground.timings);
  seen.releases = await page.$$eval("#release option", (options) => options.map((o) => o.value));
});
if (page) {
  await step("findings", async () => {
    for (const { name, text } of cases) {
      await paste(page, text);
      seen.findings[name] = await shownFindings(page);
      seen.squiggles[name] = await squiggles(page);
    }
  });
  await step("format", async () => {
    for (const { name, text } of cases) seen.formatted[name] = await press(page, text, "#format");
  });
  await step("fix", async () => {
    for (const { name, text } of cases) seen.fixed[name] = await press(page, text, "#fix");
  });
  await step("share", async () => {
    await paste(page, share.text);
    await page.selectOption("#release", share.release);
    await page.click("#share");
    const link = await page.inputValue("#share-url");
    const opened = await open(link);
    seen.share = {
      link,
      text: await opened.page.inputValue("#editor"),
      release: await opened.page.inputValue("#release"),
      findings: await shownFindings(opened.page),
    };
    await opened.page.close();
  });
  await step("folders", async () => {
    const lints = () => page.evaluate(() => window.tritonlintPlayground.lints);
    const checked = async (act) => {
      const before = await lints();
      await act();
      await page.waitForFunction((n) => window.tritonlintPlayground.lints > n, before, { timeout: WAIT });
    };
    for (const folder of folders) {
      await checked(() => page.setInputFiles("#folder", folder));
      const shown = {
        files: await page.$$eval("#file option", (options) => options.map((o) => o.value)),
        findings: await shownFindings(page),
        graph: await page.$eval("#graph", (frame) => (frame.hidden ? null : frame.srcdoc)),
      };
      await checked(() => page.click("#fix"));
      shown.fixed = await page.evaluate(() => window.tritonlintPlayground.texts());
      seen.folders[path.basename(folder)] = shown;
    }
    await checked(() => page.click("#single"));
    seen.back_to_one = { file_hidden: await page.isHidden("#file"), graph_hidden: await page.isHidden("#graph") };
    // The screenshot of the multi-file mode, in a page of its own.
    const opened = await open(url);
    const shot = folders.find((f) => path.basename(f) === process.env.FOLDER_SHOT);
    await opened.page.setInputFiles("#folder", shot);
    await opened.page.waitForSelector("#graph:not([hidden])");
    seen.folder_shot = await opened.page.inputValue("#file");
    await opened.page.screenshot({ path: path.join(OUT, "playground-folder.png") });
    await opened.page.close();
  });
  await step("graph", async () => {
    await paste(page, trees.ensemble);
    seen.graph = {
      ensemble: await drawnGraph(page),
      findings: await shownFindings(page),
      timings: await page.evaluate(() => window.tritonlintPlayground.timings),
    };
    // The screenshot, in a page of its own (one in the background may leave a frame unpainted).
    const opened = await open(url);
    await paste(opened.page, trees.ensemble);
    await opened.page.frameLocator("#graph").locator("svg").waitFor({ timeout: WAIT });
    await opened.page.screenshot({ path: path.join(OUT, "playground-ensemble.png") });
    await opened.page.close();
    await paste(page, trees.plain);
    seen.graph.plain = await drawnGraph(page);
  });
  await step("trees", async () => {
    for (const { name, text } of trees.pasted) {
      await pasteTree(page, text);
      seen.trees[name] = await folderShown(page);
    }
    for (const { name, text } of trees.bad) {
      await pasteTree(page, text);
      seen.bad_trees[name] = {
        status: await page.textContent("#status"),
        error: await page.$eval("#status", (line) => line.classList.contains("error")),
        folder_mode: await page.isVisible("#file"),
      };
    }
  });
  await step("copy", async () => {
    // The last tree pasted, copied as text and pasted back.
    await pasteTree(page, trees.pasted.at(-1).text);
    const before = await folderShown(page);
    await page.click("#copy-tree");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    await pasteTree(page, copied);
    seen.copy = { before, copied, after: await folderShown(page) };
  });
  await step("share_tree", async () => {
    const { name, release, file } = trees.share;
    await pasteTree(page, trees.pasted.find((tree) => tree.name === name).text);
    await checked(page, () => page.selectOption("#release", release));
    await page.selectOption("#file", file); // (shown and checked as the option changes)
    await page.click("#share");
    await page.waitForFunction(() => document.getElementById("share-url").value.includes("tree="));
    const link = await page.inputValue("#share-url");
    const sharing = await folderShown(page);
    const opened = await open(link);
    seen.share_tree = { link, sharing, opened: await folderShown(opened.page) };
    await opened.page.close();
    // A folder with a binary file: left out of the link, and the page says so.
    await checked(page, () => page.setInputFiles("#folder", trees.binary));
    await page.click("#share");
    await page.waitForFunction(() => document.getElementById("share-url").value.includes("tree="));
    const binaryLink = await page.inputValue("#share-url");
    const status = await page.textContent("#status");
    const reopened = await open(binaryLink);
    seen.share_binary = { status, before: await folderShown(page), opened: await folderShown(reopened.page) };
    await reopened.page.close();
  });
  await step("drop", async () => {
    // A real drop of a folder from the file system, as the browser delivers it: the page
    // reads it through DataTransferItem.webkitGetAsEntry().
    const opened = await open(url);
    const cdp = await context.newCDPSession(opened.page);
    await checked(opened.page, async () => {
      for (const type of ["dragEnter", "dragOver", "drop"]) {
        await cdp.send("Input.dispatchDragEvent", {
          type, x: 400, y: 300, data: { items: [], files: [trees.drop], dragOperationsMask: 1 },
        });
      }
    });
    seen.drop = await folderShown(opened.page);
    seen.drop.graph = await opened.page.$eval("#graph", (frame) => (frame.hidden ? null : frame.srcdoc));
    await opened.page.close();
  });
  await step("screenshot", async () => {
    const opened = await open(url); // the example the page opens with
    seen.example = await shownFindings(opened.page);
    await opened.page.screenshot({ path: path.join(OUT, "playground.png") });
    seen.gutter = await gutterLines(opened.page);
    // A text taller than the editor, scrolled to its end: the numbers scroll with it.
    const long = `${"# a comment\n".repeat(120)}max_batch_size: "8"\n`;
    await paste(opened.page, long);
    await opened.page.$eval("#editor", (editor) => {
      editor.scrollTop = editor.scrollHeight;
      editor.dispatchEvent(new Event("scroll"));
    });
    seen.scrolledGutter = await gutterLines(opened.page);
    await opened.page.close();
  });
}
seen.requests = [...new Set(requests)];
fs.writeFileSync(path.join(OUT, "observations.json"), JSON.stringify(seen, null, 2));
fs.writeFileSync(path.join(OUT, "browser-console.log"), consoleLines.join("\n"));
await browser.close();
process.exit(Object.keys(seen.errors).length ? 1 : 0);
