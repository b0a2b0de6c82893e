/// <reference lib="dom" />
/**
 * The script of the ensemble graph's webview (bundled into dist/graphView.js): draws the
 * laid-out graph that the extension posts (graphView.ts) as SVG, and posts back what the
 * user clicks. It loads nothing: the page's Content-Security-Policy allows this script alone.
 */
import type { ArrowView, BoxView, FrameView, GraphPlace, GraphView, PanelView } from '../graphView';

/** What the extension posts to the page. */
export type ToPage = { type: 'graph'; view: GraphView } | { type: 'problem'; message: string };
/** What the page posts to the extension. */
export type FromPage = { type: 'open'; uri: string } | { type: 'reveal'; place: GraphPlace } | { type: 'ready' };

interface VsCodeApi {
  postMessage(message: FromPage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const SVG = 'http://www.w3.org/2000/svg';
const vscode = acquireVsCodeApi();

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  parent: Element,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    element.setAttribute(key, String(value));
  }
  parent.appendChild(element);
  return element;
}

function titled(element: Element, text: string): void {
  svg('title', {}, element).textContent = text;
}

const tooltip = document.getElementById('tooltip') as HTMLElement;

function showTooltip(text: string, event: MouseEvent): void {
  tooltip.textContent = text;
  tooltip.hidden = false;
  // Beside the pointer, on whichever side leaves it inside the window.
  const left = event.clientX + 12 + tooltip.offsetWidth > window.innerWidth;
  const above = event.clientY + 12 + tooltip.offsetHeight > window.innerHeight;
  tooltip.style.left = `${Math.max(0, left ? event.clientX - 12 - tooltip.offsetWidth : event.clientX + 12)}px`;
  tooltip.style.top = `${Math.max(0, above ? event.clientY - 12 - tooltip.offsetHeight : event.clientY + 12)}px`;
}

function hideTooltip(): void {
  tooltip.hidden = true;
}

function hoverable(element: Element, text: string): void {
  element.addEventListener('mousemove', (event) => showTooltip(text, event as MouseEvent));
  element.addEventListener('mouseleave', hideTooltip);
}

function drawBox(box: BoxView, parent: Element): void {
  const classes = ['node', box.kind, box.severity ?? '', box.open ? 'link' : '', box.cycle ? 'cycle' : ''].filter(
    Boolean,
  );
  const group = svg('g', { class: classes.join(' '), 'data-id': box.id }, parent);
  const ends = box.kind === 'input' || box.kind === 'output';
  svg('rect', { x: box.x, y: box.y, width: box.width, height: box.height, rx: ends ? box.height / 2 : 3 }, group);
  box.lines.forEach((line, index) => {
    const text = svg(
      'text',
      { x: box.x + box.width / 2, y: box.y + 4 + 16 * (index + 1) - 4, class: index === 0 ? 'name' : 'detail' },
      group,
    );
    text.textContent = line;
  });
  titled(group, box.tooltip);
  if (box.open) {
    const uri = box.open;
    group.addEventListener('click', () => vscode.postMessage({ type: 'open', uri }));
  }
}

/** A nested ensemble's frame: a rectangle behind its boxes, its title a link to its config. */
function drawFrame(frame: FrameView, parent: Element): void {
  const group = svg(
    'g',
    { class: ['frame', frame.severity ?? ''].filter(Boolean).join(' '), 'data-id': frame.id },
    parent,
  );
  svg('rect', { x: frame.x, y: frame.y, width: frame.width, height: frame.height, rx: 6 }, group);
  const title = svg(
    'text',
    { x: frame.x + 8, y: frame.y + 16, class: ['frame-title', frame.open ? 'link' : ''].filter(Boolean).join(' ') },
    group,
  );
  title.textContent = frame.title;
  titled(group, frame.tooltip);
  if (frame.open) {
    const uri = frame.open;
    title.addEventListener('click', () => vscode.postMessage({ type: 'open', uri }));
  }
}

function drawArrow(arrow: ArrowView, parent: Element): void {
  const group = svg('g', { class: ['edge', arrow.severity ?? ''].filter(Boolean).join(' ') }, parent);
  const middle = (arrow.x1 + arrow.x2) / 2;
  const path = `M${arrow.x1},${arrow.y1} C${middle},${arrow.y1} ${middle},${arrow.y2} ${arrow.x2},${arrow.y2}`;
  svg('path', { d: path, class: 'line', 'marker-end': 'url(#arrow)' }, group);
  // A wide, invisible stroke along the line: the area that takes the hover.
  svg('path', { d: path, class: 'hit' }, group);
  const label = svg('text', { x: middle, y: (arrow.y1 + arrow.y2) / 2 - 6, class: 'label' }, group);
  label.textContent = arrow.label;
  hoverable(group, arrow.tooltip);
  if (arrow.reveal) {
    const place = arrow.reveal;
    group.addEventListener('click', () => vscode.postMessage({ type: 'reveal', place }));
  }
}

function drawPanel(panel: PanelView, parent: Element): void {
  // The viewBox lets the page's style shrink a wide ensemble to the view's width (never enlarge it).
  const size = { width: panel.width, height: panel.height, viewBox: `0 0 ${panel.width} ${panel.height}` };
  const picture = svg('svg', { ...size, class: 'ensemble' }, parent);
  const marker = svg(
    'marker',
    { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto' },
    svg('defs', {}, picture),
  );
  svg('path', { d: 'M0,0 L10,5 L0,10 z' }, marker);
  svg('text', { x: 16, y: 20, class: 'title' }, picture).textContent = panel.title;
  for (const frame of panel.frames) {
    drawFrame(frame, picture);
  }
  for (const arrow of panel.arrows) {
    drawArrow(arrow, picture);
  }
  for (const box of panel.boxes) {
    drawBox(box, picture);
  }
}

function draw(view: GraphView): void {
  const root = document.getElementById('graph') as HTMLElement;
  root.replaceChildren();
  const heading = document.createElement('h2');
  heading.textContent = view.heading;
  root.appendChild(heading);
  for (const panel of view.panels) {
    drawPanel(panel, root);
  }
  if (view.unconnected.length > 0) {
    const list = document.createElement('p');
    list.className = 'unconnected';
    list.textContent = `In no ensemble: ${view.unconnected.join(', ')}`;
    root.appendChild(list);
  }
  document.body.dataset.state = 'drawn';
}

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const message = event.data;
  const problem = document.getElementById('problem') as HTMLElement;
  if (message.type === 'graph') {
    problem.hidden = true;
    draw(message.view);
  } else if (message.type === 'problem') {
    problem.textContent = message.message;
    problem.hidden = false;
  }
});
vscode.postMessage({ type: 'ready' });
