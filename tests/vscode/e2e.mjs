// Drives VS Code (code-server) in headless Chromium as a person would, and writes down what
// the workbench shows: the squiggles under the characters they cover, the Problems panel,
// hovers, the quick fix menu, the completion list, the status items, the rule documentation
// and the files saved after a quick fix and after Format Document. The tests in tests/vscode/
// start code-server, run this and judge observations.json; this script asserts nothing
// itself, it only waits (each wait bounded) for what the plan says should appear.
//
// env: CS_URL          the workbench's address
//      PLAN            JSON: what to open, wait for and do; `steps` names the steps to run,
//                      in order (see test_vscode_e2e.py, test_vscode_zero_setup.py)
//      WORKSPACE       the folder code-server has open (saved files are read from there)
//      OUT_DIR         screenshots, observations.json, browser-console.log
//      PLAYWRIGHT_CORE the playwright-core package folder; CHROMIUM the browser
//      STEP_TIMEOUT_MS the longest wait of one step (default 60000)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const { chromium } = createRequire(import.meta.url)(process.env.PLAYWRIGHT_CORE);
const plan = JSON.parse(process.env.PLAN);
const OUT = process.env.OUT_DIR;
const WORKSPACE = process.env.WORKSPACE;
const STEP = Number(process.env.STEP_TIMEOUT_MS || 60000);
fs.mkdirSync(OUT, { recursive: true });

const started = Date.now();
const seen = { timings: {}, errors: {} };
const log = (text) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `probe` until it returns something truthy, for at most `ms`. */
async function until(what, probe, ms = STEP) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
const consoleLines = [];
page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));

const shot = (name) => page.screenshot({ path: path.join(OUT, name) });

/** A screenshot of the part of the page around `locators`' boxes (with a margin). */
async function clippedShot(name, ...locators) {
  const boxes = (await Promise.all(locators.map((l) => l.boundingBox()))).filter(Boolean);
  const margin = 16;
  const viewport = page.viewportSize();
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
  const right = Math.min(viewport.width, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
  const bottom = Math.min(viewport.height, Math.max(...boxes.map((b) => b.y + b.height)) + margin);
  await page.screenshot({ path: path.join(OUT, name), clip: { x, y, width: right - x, height: bottom - y } });
}
const editor = () => page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();
const quickInput = page.locator('.quick-input-widget input');

/** Opens Quick Open (Ctrl+P) or the command palette (F1); the first keys can be lost while
 * the workbench is still starting, hence the retries. */
async function openQuickInput(key) {
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press(key);
    try {
      await quickInput.waitFor({ state: 'visible', timeout: 3000 });
      return;
    } catch {
      await page.keyboard.press('Escape');
    }
  }
  throw new Error(`${key} did not open the quick input`);
}

async function openFile(relative) {
  await openQuickInput('Control+P');
  await quickInput.fill(relative);
  // The row of that file (its name, and its folder beside it), not of a recently opened one
  // that the list shows first while the search runs.
  const row = page
    .locator('.quick-input-list .monaco-list-row', { hasText: path.basename(relative) })
    .filter({ hasText: path.dirname(relative) })
    .first();
  await row.waitFor({ timeout: STEP });
  await row.click();
  // The tab's label holds the file's path.
  const tab = page.locator('.editor-group-container.active .tab.active .monaco-icon-label');
  await until(`the editor of ${relative}`, async () => (await tab.getAttribute('aria-label'))?.includes(relative));
  await editor().locator('.view-lines').waitFor({ timeout: STEP });
}

/** Moves the cursor with Quick Open's `:line:column`. */
async function goTo(line, column) {
  await openQuickInput('Control+P');
  await quickInput.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await quickInput.waitFor({ state: 'hidden', timeout: STEP });
}

async function runCommand(label) {
  await openQuickInput('F1');
  await quickInput.fill(`>${label}`);
  const row = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.getByText(label, { exact: true }) })
    .first();
  await row.waitFor({ timeout: STEP });
  await row.click();
  await quickInput.waitFor({ state: 'hidden', timeout: STEP });
}

// Text the editor shows between the file's characters (inlay hints): its classes come from
// Monaco's dynamic CSS rules.
const INJECTED = '[class*="dyn-rule-"]';

/** The squiggles of the active editor: severity, the line (from the line numbers beside it)
 * and the characters under each, with the pixels of both ends. */
function squiggles() {
  return editor().evaluate((root, INJECTED) => {
    const numbers = [...root.querySelectorAll('.margin-view-overlays .line-numbers')];
    const lines = [...root.querySelectorAll('.view-lines .view-line')];
    const middle = (r) => r.top + r.height / 2;
    const around = (el, y) => {
      const r = el.getBoundingClientRect();
      return r.top <= y && y < r.bottom;
    };
    return [...root.querySelectorAll('.view-overlays [class*="squiggly-"]')].map((squiggle) => {
      const box = squiggle.getBoundingClientRect();
      const y = middle(box);
      const number = numbers.find((el) => around(el, y));
      const line = lines.find((el) => around(el, y));
      const under = [];
      let column = 0;
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest(INJECTED)) continue;
        for (let i = 0; i < node.length; i++) {
          column += 1;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = range.getBoundingClientRect();
          const x = r.left + r.width / 2;
          if (x >= box.left && x <= box.right) under.push({ column, char: node.data[i], left: r.left, right: r.right });
        }
      }
      return {
        severity: [...squiggle.classList].find((c) => c.startsWith('squiggly-')).slice('squiggly-'.length),
        line: Number(number?.textContent),
        column: under[0]?.column ?? null,
        text: under
          .map((u) => u.char)
          .join('')
          .replaceAll('\u00a0', ' '),
        squiggle: [box.left, box.right],
        characters: under.length ? [under[0].left, under[under.length - 1].right] : null,
      };
    });
  }, INJECTED);
}

/** The middle of `word` on line `number` of the active editor, in page pixels. */
/** The text of line ``number`` as the active editor shows it (injected hints left out). */
function lineText(number) {
  return editor().evaluate(
    (root, [number, INJECTED]) => {
      const y = [...root.querySelectorAll('.margin-view-overlays .line-numbers')]
        .find((el) => Number(el.textContent) === number)
        .getBoundingClientRect();
      const line = [...root.querySelectorAll('.view-lines .view-line')].find((el) => {
        const r = el.getBoundingClientRect();
        return Math.abs(r.top - y.top) < 2;
      });
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let text = '';
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement.closest(INJECTED)) text += node.data;
      }
      return text.replace(/\u00a0/g, ' ');
    },
    [number, INJECTED],
  );
}

function wordCentre(number, word) {
  return editor()
    .evaluate(
      (root, [number, word, INJECTED]) => {
        const y = [...root.querySelectorAll('.margin-view-overlays .line-numbers')]
          .find((el) => Number(el.textContent) === number)
          .getBoundingClientRect();
        const line = [...root.querySelectorAll('.view-lines .view-line')].find((el) => {
          const r = el.getBoundingClientRect();
          return Math.abs(r.top - y.top) < 2;
        });
        const node = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let text = node.nextNode(); text; text = node.nextNode()) {
          if (text.parentElement.closest(INJECTED)) continue;
          const at = text.data.indexOf(word);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + word.length);
          const r = range.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        }
        return null;
      },
      [number, word, INJECTED],
    )
    .then((point) => {
      if (!point) throw new Error(`no "${word}" on line ${number}`);
      return point;
    });
}

async function hoverAt(point, expect) {
  // The hover shows when the mouse comes to rest on a word: come from elsewhere, and again
  // if the first approach did not show it.
  for (let i = 0; i < 3; i++) {
    await page.mouse.move(5, 5);
    await sleep(300);
    await page.mouse.move(point.x, point.y, { steps: 5 });
    const hover = page.locator('.monaco-hover:visible', { hasText: expect }).first();
    try {
      await hover.waitFor({ timeout: STEP / 3 });
      return await hover.innerText();
    } catch {
      /* again */
    }
  }
  throw new Error(`no hover with "${expect}"`);
}

/** Shows the Problems panel (Ctrl+Shift+M, which hides it when it has the focus). */
async function showProblems() {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible())) await page.keyboard.press('Control+Shift+M');
  await panel.waitFor({ state: 'visible', timeout: STEP });
}

const problemRows = () =>
  page
    .locator('.markers-panel .monaco-list-row')
    .evaluateAll((rows) => rows.map((row) => ({ text: row.innerText, label: row.getAttribute('aria-label') })));

async function problemsWhere(what, accept, ms = STEP) {
  return until(
    what,
    async () => {
      const rows = await problemRows();
      return accept(rows.map((r) => r.text).join('\n')) && rows;
    },
    ms,
  );
}

const savedText = (relative) => fs.readFileSync(path.join(WORKSPACE, relative), 'utf8');

async function saved(relative, before) {
  await page.keyboard.press('Control+S');
  return until(`${relative} saved`, async () => {
    const text = savedText(relative);
    return text !== before && text;
  });
}

/** The graph view's page: a frame of its own (inside the workbench's webview frame), once
 * it has drawn a graph. */
async function graphFrame() {
  return until('the graph drawn in the webview', async () => {
    for (const candidate of page.frames()) {
      if (candidate === page.mainFrame()) continue;
      const drawn = await candidate.locator('body[data-state="drawn"] svg .node').count();
      if (drawn > 0) return candidate;
    }
    return undefined;
  });
}

/** The editor group whose active tab is the file `relative`. */
function editorGroupOf(relative) {
  return page
    .locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: path.basename(relative) }) })
    .first();
}

/** Waits for `group` to show the file `relative` (a config opened from the graph view opens in
 * the first group, beside the view, which keeps the focus: the breadcrumbs above the editor give
 * its path); returns that path. */
async function openedIn(group, relative) {
  return until(`the editor of ${relative}`, async () => {
    const crumbs = await group.locator('.breadcrumbs-control .monaco-breadcrumb-item').allInnerTexts();
    const shown = crumbs
      .map((crumb) => crumb.trim())
      .filter(Boolean)
      .slice(0, relative.split('/').length)
      .join('/');
    return shown === relative && shown;
  });
}

const steps = {
  async workbench() {
    await page.goto(process.env.CS_URL, { waitUntil: 'domcontentloaded', timeout: STEP });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: STEP });
    await page
      .locator('.monaco-workbench')
      .click({ position: { x: 640, y: 400 } })
      .catch(() => {});
  },

  async open() {
    await openFile(plan.file);
  },

  async diagnostics() {
    seen.squiggles = await until(`${plan.squiggles} squiggles`, async () => {
      const found = await squiggles();
      return found.length >= plan.squiggles && found;
    });
    const { line, word, expect } = plan.diagnosticHover;
    seen.diagnosticHover = await hoverAt(await wordCentre(line, word), expect);
    await shot('diagnostics.png');
  },

  async problems() {
    await page.mouse.move(5, 5);
    await showProblems();
    seen.problems = await problemsWhere(`the Problems rows of ${plan.problems.join(', ')}`, (text) =>
      plan.problems.every((code) => text.includes(code)),
    );
    await shot('problems.png');
  },

  async hover() {
    const point = await wordCentre(plan.hover.line, plan.hover.word);
    seen.hover = await hoverAt(point, plan.hover.expect);
    await shot('hover.png');
  },

  async quickfix() {
    await page.mouse.move(5, 5);
    await showProblems();
    await goTo(plan.quickfix.line, plan.quickfix.column);
    const menu = page.locator('.action-widget:not(.action-list-submenu-panel)');
    for (let i = 0; i < 3 && !(await menu.isVisible()); i++) {
      await page.keyboard.press('Control+.');
      await menu.waitFor({ state: 'visible', timeout: STEP / 3 }).catch(() => {});
    }
    const action = menu.locator('.monaco-list-row.action', { hasText: plan.quickfix.title }).first();
    await action.waitFor({ timeout: STEP });
    seen.quickfixMenu = await menu.locator('.monaco-list-row.action .title').allInnerTexts();
    await action.hover();
    await shot('quickfix.png');
    await action.click();
    seen.afterQuickfix = await problemsWhere(
      `${plan.quickfix.code} gone from Problems`,
      (text) => !text.includes(plan.quickfix.code) && plan.problems.some((code) => text.includes(code)),
    );
    seen.savedAfterQuickfix = await saved(plan.file, savedText(plan.file));
  },

  async format() {
    await runCommand('Format Document');
    await page.locator('.editor-group-container.active .tab.active.dirty').waitFor({ timeout: STEP });
    // The picture: the saved text beside the formatted one, with room for both.
    await runCommand('View: Hide Panel');
    await runCommand('View: Close Primary Side Bar');
    await runCommand('File: Compare Active File with Saved');
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: STEP });
    await page.mouse.move(5, 5);
    await sleep(1000); // the diff's decorations
    await shot('format.png');
    await runCommand('View: Close Editor');
    seen.savedAfterFormat = await saved(plan.file, seen.savedAfterQuickfix);
  },

  async completion() {
    await showProblems();
    // Retype the start of a line (its indentation kept), as when correcting its value.
    await goTo(plan.completion.line, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type(plan.completion.type, { delay: 50 });
    const rows = page.locator('.editor-widget.suggest-widget.visible .monaco-list-row');
    const wanted = rows.filter({ hasText: plan.completion.choose }).first();
    try {
      await wanted.waitFor({ timeout: STEP / 2 });
    } catch {
      await page.keyboard.press('Control+Space'); // the trigger character's request was lost
      await wanted.waitFor({ timeout: STEP / 2 });
    }
    seen.completion = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    await shot('completion.png');
    await wanted.click();
    seen.afterCompletion = await problemsWhere(
      `${plan.completion.code} gone from Problems`,
      (text) => !text.includes(plan.completion.code) && plan.problems.some((code) => text.includes(code)),
    );
    seen.savedAfterCompletion = await saved(plan.file, seen.savedAfterFormat);
  },

  /** A problem starting the server, notified; the user corrects the workspace setting, and
   * the notification closes itself: nothing stale is left on screen. */
  async notice() {
    const { expect, settingsFile, fixed } = plan.notice;
    const toasts = page.locator('.notifications-toasts .notification-list-item');
    const toast = toasts.filter({ hasText: expect }).first();
    const item = page.locator('.statusbar-item[id$="tritonlint.status"]');
    // The item is hidden (out of the page) while the server runs and no config is open.
    const statusItem = async () =>
      (await item.count()) === 0
        ? { visible: false, label: null, text: '', classes: '' }
        : {
            visible: await item.isVisible(),
            label: await item.getAttribute('aria-label', { timeout: 1000 }),
            text: (await item.innerText({ timeout: 1000 })).trim(),
            classes: await item.getAttribute('class', { timeout: 1000 }),
          };
    await toast.waitFor({ timeout: STEP });
    await until('the status bar item in its error state', async () => (await statusItem()).label?.includes(expect));
    await page.mouse.move(5, 5);
    seen.notice = {
      text: await toast.locator('.notification-list-item-message').innerText(),
      links: await toast
        .locator('.notification-list-item-message a')
        .evaluateAll((links) => links.map((a) => ({ text: a.innerText, href: a.getAttribute('href') ?? a.title }))),
      buttons: await toast.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts(),
      progress: await toast.locator('.progress-bit, .monaco-progress-container.active').count(),
      statusItem: await statusItem(),
    };
    await shot('notice.png');
    // [Show Output] opens the output channel of the extension.
    await toast.locator('.notification-list-item-message a', { hasText: 'Show Output' }).click();
    const output = page.locator('.part.panel .output-view, .part.panel [id="workbench.panel.output"]').first();
    seen.notice.showOutput = await until('the tritonlint output channel', async () => {
      if (!(await output.isVisible())) return undefined;
      const text = await page.locator('.part.panel .monaco-editor .view-lines').first().innerText();
      return text.includes('tritonlint.path') && text.replaceAll('\u00a0', ' ');
    }).catch((error) => `not shown: ${error}`);
    seen.notice.toastsAfterShowOutput = await toasts.allInnerTexts();
    // The user corrects the setting (as in an editor, or by another program: VS Code reads the file).
    fs.writeFileSync(path.join(WORKSPACE, settingsFile), JSON.stringify(fixed, null, 2) + '\n');
    const corrected = Date.now();
    await until(
      'the notification gone',
      async () => (await toasts.filter({ hasText: expect }).count()) === 0,
      plan.notice.wait,
    ).catch(() => {});
    seen.noticeGoneAfter = (Date.now() - corrected) / 1000;
    seen.toastsAfterFix = await toasts.allInnerTexts();
    seen.statusAfterFix = await until('the status bar item out of its error state', async () => {
      const now = await statusItem();
      return !now.label?.includes(expect) && now;
    }).catch(() => undefined);
    // The bell: a notification hidden, not closed, would still be counted there (bell-dot).
    seen.notificationsBell = await page
      .locator('[id="status.notifications"] .codicon')
      .first()
      .getAttribute('class', { timeout: 1000 })
      .catch(() => null);
    // The corrected server's findings: the Problems count in the status bar.
    seen.problemsAfterFix = await until('the findings counted in the status bar', async () => {
      const label = await page.locator('[id="status.problems"] a, [id="status.problems"]').first().innerText();
      return /[1-9]/.test(label) && label.replaceAll('\n', ' ').trim();
    }).catch(() => null);
    await shot('notice-fixed.png');
  },

  /** The findings of files never opened, in the Problems panel; a click on one opens its file. */
  async folderProblems() {
    const { codes, click, wait } = plan.folderProblems;
    await showProblems();
    seen.folderProblems = await problemsWhere(
      `the Problems rows of ${codes.join(', ')}`,
      (text) => codes.every((code) => text.includes(code)),
      wait,
    );
    seen.editorsBeforeClick = await page.locator('.editor-group-container .tab').count();
    await page.locator('.markers-panel .monaco-list-row', { hasText: click }).first().click();
    const tab = page.locator('.editor-group-container.active .tab.active .monaco-icon-label');
    await tab.waitFor({ timeout: STEP });
    await editor().locator('.view-lines .view-line').first().waitFor({ timeout: STEP });
    await sleep(500); // an editor that cannot show the file says so in its place
    seen.openedFromProblems = {
      tab: (await page.locator('.editor-group-container.active .tab.active').innerText()).trim(),
      breadcrumbs: await page
        .locator('.editor-group-container.active .breadcrumbs-control .monaco-icon-label')
        .allInnerTexts(),
      firstLine: (await editor().locator('.view-lines .view-line').first().innerText()).replaceAll('\u00a0', ' '),
      placeholders: await page
        .locator('.editor-group-container.active .monaco-editor-pane-placeholder')
        .allInnerTexts(),
      notifications: await page.locator('.notifications-toasts .notification-list-item').allInnerTexts(),
    };
  },

  /** The status bar item (its text and tooltip) and the language status item (under `{}`). */
  async status() {
    const item = page.locator('.statusbar-item[id$="tritonlint.status"]');
    // Ready, then the release checked against, which the server is asked for.
    await until(
      'the server ready in the status bar, with its Triton release',
      async () =>
        (await item.getAttribute('aria-label')).includes(': ready') && (await item.innerText()).includes('Triton'),
    );
    seen.statusBar = (await item.innerText()).trim();
    seen.statusBarEntries = await page
      .locator('.statusbar-item')
      .evaluateAll((els) => els.map((el) => ({ id: el.id, label: el.getAttribute('aria-label'), text: el.innerText })));
    await page.mouse.move(5, 5);
    await item.hover();
    const tooltip = page.locator('.workbench-hover:visible, .monaco-hover:visible', { hasText: 'ready' }).first();
    await tooltip.waitFor({ timeout: STEP });
    seen.statusBarTooltip = await tooltip.innerText();
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'hidden', timeout: STEP }).catch(() => {});
    // The language status: the `{}` beside the language's name opens a hover with the items.
    await page.locator('#status\\.languageStatus .statusbar-item-label, #status\\.languageStatus a').first().click();
    const hover = page.locator('.workbench-hover:visible, .monaco-hover:visible', { hasText: 'tritonlint' }).first();
    await hover.waitFor({ timeout: STEP });
    seen.languageStatus = await hover.innerText();
    await shot('status-page.png');
    await clippedShot('status.png', hover, item);
    await page.keyboard.press('Escape');
    await page.mouse.move(5, 5);
  },

  /** A quick fix that moves a file: offered on the finding, and the file moved on disk. */
  async moveFix() {
    const { file, line, column, title, code, source, target } = plan.moveFix;
    await openFile(file);
    await showProblems();
    await goTo(line, column);
    const menu = page.locator('.action-widget:not(.action-list-submenu-panel)');
    for (let i = 0; i < 3 && !(await menu.isVisible()); i++) {
      await page.keyboard.press('Control+.');
      await menu.waitFor({ state: 'visible', timeout: STEP / 3 }).catch(() => {});
    }
    const action = menu.locator('.monaco-list-row.action', { hasText: title }).first();
    await action.waitFor({ timeout: STEP });
    seen.moveFixMenu = await menu.locator('.monaco-list-row.action .title').allInnerTexts();
    await action.click();
    const exists = (relative) => fs.existsSync(path.join(WORKSPACE, relative));
    await until(`${target} on disk`, async () => exists(target) && !exists(source));
    seen.movedFiles = { [source]: exists(source), [target]: exists(target) };
    seen.afterMoveFix = await problemsWhere(
      `${code} gone from Problems`,
      (text) => !text.includes(code) && plan.folderProblems.codes.some((c) => text.includes(c)),
    );
  },

  /** `input [` and Enter at the end of a config, quick suggestions on (the default). */
  async inputEnter() {
    const { file, type } = plan.inputEnter;
    await openFile(file);
    const before = savedText(file);
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(type, { delay: 50 });
    await sleep(1500); // time for a completion list to come, as a person pauses
    seen.suggestionsBeforeEnter = await page
      .locator('.editor-widget.suggest-widget.visible .monaco-list-row')
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    await page.keyboard.press('Enter');
    await sleep(300);
    seen.savedAfterInputEnter = await saved(file, before);
  },

  /** Show Rule Documentation with the cursor on a finding: the rule's page in the markdown preview. */
  async ruleDocs() {
    const { file, line, column, expect } = plan.ruleDocs;
    await openFile(file);
    await goTo(line, column);
    await runCommand('tritonlint: Show Rule Documentation');
    const tab = page.locator('.editor-group-container.active .tab.active');
    await until('the preview tab', async () => (await tab.innerText()).includes(expect));
    seen.ruleDocsTab = (await tab.innerText()).trim();
    // The preview is a webview: its page is in a frame of its own.
    seen.ruleDocs = await until(`a preview showing ${expect}`, async () => {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const text = await frame
          .locator('body')
          .innerText({ timeout: 1000 })
          .catch(() => '');
        if (text.includes(expect)) return text;
      }
      return undefined;
    });
    await page.mouse.move(5, 5);
    await sleep(500);
    await shot('rule-docs.png');
  },

  /** Show Ensemble Graph on an ensemble: the webview's picture, an arrow's hover, and a
   * click on a model's box, which opens its config. */
  async graph() {
    const { file, hoverEdge, open, opened } = plan.graph;
    await openFile(file);
    await runCommand('tritonlint: Show Ensemble Graph');
    const frame = await graphFrame();
    seen.graphHeading = await frame.locator('h2').innerText();
    seen.graphNodes = await frame
      .locator('svg .node')
      .evaluateAll((nodes) => nodes.map((node) => [...node.querySelectorAll('text')].map((t) => t.textContent)));
    seen.graphEdges = await frame.locator('svg .edge text.label').allTextContents();
    seen.graphMarked = await frame
      .locator('svg .node.error, svg .edge.error')
      .evaluateAll((found) => found.map((el) => el.querySelector('text')?.textContent));
    await frame.locator('svg .edge text.label', { hasText: hoverEdge }).first().hover();
    const tooltip = frame.locator('#tooltip');
    await tooltip.waitFor({ state: 'visible', timeout: STEP });
    seen.graphEdgeHover = await tooltip.innerText();
    await shot('graph.png');
    await frame.locator('svg .node.link', { hasText: open }).first().click();
    const group = editorGroupOf(opened);
    seen.graphOpened = await openedIn(group, opened);
    // The view follows the config now active. Typing in it (unsaved) redraws the graph:
    // renaming the classifier's input to the name the ensemble maps clears the findings.
    const { line, word, typed } = plan.graph.edit;
    // The word is selected by a double click and typed over; a click that lands while the
    // editor is still moving (a busy machine) is undone and tried again, up to 3 times.
    for (let attempt = 1; ; attempt += 1) {
      await group.locator('.view-lines').click();
      const point = await wordCentre(line, word);
      await page.mouse.dblclick(point.x, point.y);
      await page.keyboard.type(typed, { delay: 50 });
      const landed = await until(
        `line ${line} to read "${typed}"`,
        async () => (await lineText(line)).includes(`"${typed}"`),
        5_000,
      ).catch(() => false);
      if (landed) break;
      if (attempt === 3) throw new Error(`line ${line} reads ${JSON.stringify(await lineText(line))}`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Z');
    }
    await until('the graph redrawn without findings', async () => {
      const heading = await frame.locator('h2').innerText();
      const marked = await frame.locator('svg .error').count();
      return heading.includes(open) && marked === 0;
    });
    seen.graphHeadingAfterEdit = await frame.locator('h2').innerText();
    seen.graphMarkedAfterEdit = await frame.locator('svg .error, svg .warning').count();
    seen.graphSavedAfterEdit = savedText(opened);
    await shot('graph-opened.png');
  },

  /** Show Ensemble Graph on an ensemble that runs another: the nested one is a frame with its
   * models inside; a click on an inner model opens its config, one on the frame's title the
   * nested ensemble's. */
  async nestedGraph() {
    const { file, open, opened, frameOpened } = plan.nestedGraph;
    await openFile(file);
    await runCommand('tritonlint: Show Ensemble Graph');
    const frame = await graphFrame();
    seen.nestedHeading = await frame.locator('h2').innerText();
    seen.nestedPanels = await frame.locator('svg.ensemble > text.title').allTextContents();
    // Each frame's title, and the first lines of the boxes drawn inside its rectangle.
    seen.nestedFrames = await frame.locator('svg .frame').evaluateAll((frames) =>
      frames.map((group) => {
        const outer = group.querySelector('rect').getBoundingClientRect();
        const inside = [...group.ownerSVGElement.querySelectorAll('.node')].filter((node) => {
          const box = node.querySelector('rect').getBoundingClientRect();
          return (
            box.left >= outer.left &&
            box.right <= outer.right &&
            box.top >= outer.top &&
            box.bottom <= outer.bottom
          );
        });
        return {
          title: group.querySelector('text.frame-title').textContent,
          inside: inside.map((node) => node.querySelector('text').textContent),
        };
      }),
    );
    seen.nestedNodes = await frame
      .locator('svg .node')
      .evaluateAll((nodes) => nodes.map((node) => node.querySelector('text').textContent));
    seen.nestedEdges = await frame.locator('svg .edge text.label').allTextContents();
    // The picture is wider than the view beside the editor: for the screenshot, the window
    // wider and the view's group maximized (where this VS Code has the command), then restored.
    await page.locator('.tab', { hasText: 'Ensemble Graph' }).first().click();
    await page.setViewportSize({ width: 1600, height: 800 });
    const maximized = await runCommand('View: Maximize Editor Group and Hide Side Bars').then(
      () => true,
      () => page.keyboard.press('Escape').then(() => false),
    );
    await sleep(1000);
    await shot('graph-nested.png');
    if (maximized) {
      await runCommand('View: Toggle Maximize Editor Group');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // A click on a model inside the frame opens its config; the view follows it (what runs it).
    await frame.locator('svg .node.link', { hasText: open }).first().click();
    seen.nestedOpened = await openedIn(editorGroupOf(opened), opened);
    await until('the graph of what runs the model', async () => (await frame.locator('h2').innerText()).includes(open));
    await frame.locator('svg text.frame-title.link').first().click();
    seen.nestedFrameOpened = await openedIn(editorGroupOf(frameOpened), frameOpened);
  },
};

// Written after each step, so that a run stopped from outside still tells what it saw.
const record = () => fs.writeFileSync(path.join(OUT, 'observations.json'), JSON.stringify(seen, null, 2) + '\n');

// The steps that must have gone through for a step to mean anything; the others run anyway.
const needs = {
  open: ['workbench'],
  diagnostics: ['open'],
  problems: ['open'],
  hover: ['open'],
  quickfix: ['open'],
  format: ['quickfix'], // it formats the fixed text
  completion: ['format'], // it retypes a line of the formatted text
  notice: ['workbench'],
  folderProblems: ['workbench'],
  status: ['open'],
  moveFix: ['workbench'],
  inputEnter: ['workbench'],
  ruleDocs: ['workbench'],
  graph: ['workbench'],
  nestedGraph: ['workbench'],
};
const done = new Set();

let failed = false;
for (const name of plan.steps) {
  const step = steps[name];
  const missing = (needs[name] ?? []).filter((need) => !done.has(need));
  if (missing.length) {
    failed = true;
    seen.errors[name] = `not run: ${missing.join(', ')} did not go through`;
    log(`${name}: ${seen.errors[name]}`);
    record();
    continue;
  }
  const at = Date.now();
  try {
    await step();
    seen.timings[name] = (Date.now() - at) / 1000;
    done.add(name);
    log(`${name}: done in ${seen.timings[name].toFixed(1)} s`);
  } catch (error) {
    failed = true;
    seen.errors[name] = String(error?.stack ?? error);
    log(`${name}: FAILED: ${error}`);
    await shot(`failed-${name}.png`).catch(() => {});
    const toasts = await page
      .locator('.notifications-toasts .notification-list-item')
      .allInnerTexts()
      .catch(() => []);
    if (toasts.length) log(`notifications: ${JSON.stringify(toasts)}`);
    await page.keyboard.press('Escape').catch(() => {});
  }
  record();
}

fs.writeFileSync(path.join(OUT, 'browser-console.log'), consoleLines.join('\n') + '\n');
await browser.close();
log(failed ? 'some steps failed' : 'all steps done');
process.exit(failed ? 1 : 0);
