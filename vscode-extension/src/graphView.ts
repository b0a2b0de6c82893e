/**
 * The ensemble graph: the server's answer to `tritonlint/graph` (docs/editors.md, "The ensemble
 * graph") and the picture made of it: a panel per ensemble that no other runs, its boxes laid
 * out in columns (a box's column is the longest chain of arrows leading to it, the ensemble's
 * outputs in the last), its arrows labelled with the tensor as `tritonlint graph` labels them,
 * and a step that runs another ensemble drawn as that ensemble in a frame (laid out the same
 * way), the arrows of the step's tensors going to its inputs and from its outputs. Pure: the
 * webview's script (webview/graph.ts) draws what this lays out, with nothing to work out.
 */

export const GRAPH = 'tritonlint/graph';

export type Severity = 'error' | 'warning' | 'info';

export interface GraphFinding {
  code: string;
  severity: Severity;
  message: string;
  path: string;
  line: number;
  column: number;
}

export interface GraphPlace {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
}

export interface GraphModel {
  name: string;
  platform: string;
  backend: string;
  max_batch_size: number;
  instance_kinds: string[];
  ensemble: boolean;
  missing: boolean;
  findings: GraphFinding[];
  uri: string | null;
}

export interface GraphNode {
  id: string;
  kind: 'input' | 'output' | 'step' | 'unproduced' | 'unused';
  name: string;
  step?: number;
  findings: GraphFinding[];
}

export interface GraphEdge {
  source: string;
  target: string;
  tensor: string;
  data_type: string;
  dims: number[];
  batched: boolean;
  source_key: string;
  target_key: string;
  findings: GraphFinding[];
  writer: GraphPlace | null;
  reader: GraphPlace | null;
}

export interface GraphEnsemble {
  name: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphRepository {
  root: string;
  models: GraphModel[];
  ensembles: GraphEnsemble[];
  in_no_ensemble: string[];
}

export interface GraphAnswer {
  version: number;
  model: string | null;
  repositories: GraphRepository[];
}

/** A box: an ensemble input or output, a step, or the missing end of a tensor. */
export interface BoxView {
  id: string;
  kind: GraphNode['kind'];
  lines: string[];
  x: number;
  y: number;
  width: number;
  height: number;
  severity?: Severity;
  /** What hovering shows. */
  tooltip: string;
  /** The config a click opens (a step's model). */
  open?: string;
  /** A step that runs an ensemble it is drawn inside of (a cycle): not expanded again. */
  cycle?: boolean;
}

/** The frame of a nested ensemble, in place of the box of the step that runs it. */
export interface FrameView {
  id: string;
  /** `step 0: detect_pipeline (ensemble)`, at its top left. */
  title: string;
  x: number;
  y: number;
  width: number;
  height: number;
  severity?: Severity;
  tooltip: string;
  /** The nested ensemble's config, which a click on the title opens. */
  open?: string;
}

/** An arrow: one tensor from its writer to one reader. */
export interface ArrowView {
  from: string;
  to: string;
  label: string;
  /** From the writer's right edge to the reader's left edge. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  severity?: Severity;
  /** The tensor, where it is written and read, and the findings about it. */
  tooltip: string;
  /** Where a click goes: the line that writes the tensor, else the one that reads it. */
  reveal?: GraphPlace;
}

export interface PanelView {
  title: string;
  width: number;
  height: number;
  boxes: BoxView[];
  /** The frames of the nested ensembles, each after the one it is inside of. */
  frames: FrameView[];
  arrows: ArrowView[];
}

export interface GraphView {
  /** What the picture is of (`pipeline`, or why there is nothing to draw). */
  heading: string;
  panels: PanelView[];
  /** Models in no ensemble: listed, not drawn. */
  unconnected: string[];
}

// The sizes of the picture, in pixels (the webview's font is about 12 px).
const CHARACTER = 7;
const LINE = 16;
const PADDING = 8;
/** The narrowest gap between two columns; a wider one where an arrow's label needs it. */
const COLUMN_GAP = 60;
/** The width of a character of an arrow's label (its font is smaller). */
const LABEL_CHARACTER = 6.5;
const ROW_GAP = 24;
const MARGIN = 16;
const TITLE = 28;
/** A nested ensemble's frame: the room for its title above its block, and around the block. */
const FRAME_TITLE = 24;
const FRAME_PADDING = 10;

/** `pixels: FP32 [B,3,224,224]`: the tensor, its type and shape, B the batch dimension. */
export function tensorLabel(edge: GraphEdge): string {
  if (!edge.data_type) {
    return edge.tensor;
  }
  const dims = edge.dims.map(String);
  const shape = (edge.batched ? ['B', ...dims] : dims).join(',');
  return `${edge.tensor}: ${edge.data_type.replace(/^TYPE_/, '')} [${shape}]`;
}

/** A model's box: its name, what runs it, its batch size and instance kind. */
export function modelLines(model: GraphModel): string[] {
  if (model.missing) {
    return [model.name, 'no such model'];
  }
  if (model.ensemble) {
    return [model.name, 'ensemble'];
  }
  const runner = model.platform || model.backend || 'backend unknown';
  const batching = `max_batch_size ${model.max_batch_size}`;
  const kinds = model.instance_kinds.map((kind) => kind.replace(/^KIND_/, '')).join('+');
  return [model.name, runner, kinds ? `${batching} · ${kinds}` : batching];
}

/** The worst severity of `findings`. */
export function worst(findings: GraphFinding[]): Severity | undefined {
  const order: Severity[] = ['error', 'warning', 'info'];
  return order.find((severity) => findings.some((finding) => finding.severity === severity));
}

function findingLines(findings: GraphFinding[]): string[] {
  return findings.map((f) => `${f.severity} ${f.code} (line ${f.line}): ${f.message}`);
}

function placeLine(what: string, place: GraphPlace | null): string {
  if (!place) {
    return `${what}: nothing`;
  }
  const file = decodeURIComponent(place.uri.split('/').slice(-2).join('/'));
  return `${what}: ${place.text} (${file}:${place.range.start.line + 1})`;
}

function nodeLines(node: GraphNode, model: GraphModel | undefined): string[] {
  switch (node.kind) {
    case 'step':
      return model ? modelLines(model) : [node.name];
    case 'unproduced':
      return [node.name, 'written by no step'];
    case 'unused':
      return [node.name, 'read by no step'];
    default:
      return [node.name];
  }
}

/** Each node's column: the longest chain of edges leading to it; outputs in the last column. */
export function columns(ensemble: GraphEnsemble): Map<string, number> {
  const column = new Map(ensemble.nodes.map((node) => [node.id, 0]));
  // At most one pass per node: a cycle (a broken ensemble) cannot make it loop for ever.
  for (let pass = 0; pass < ensemble.nodes.length; pass++) {
    let moved = false;
    for (const edge of ensemble.edges) {
      const next = (column.get(edge.source) ?? 0) + 1;
      if (edge.source !== edge.target && next > (column.get(edge.target) ?? 0)) {
        column.set(edge.target, next);
        moved = true;
      }
    }
    if (!moved) {
      break;
    }
  }
  const last = Math.max(0, ...column.values());
  for (const node of ensemble.nodes) {
    if (node.kind === 'output') {
      column.set(node.id, last);
    }
  }
  return column;
}

/** What the layout needs of the whole answer: the models and ensembles by name. */
interface Known {
  models: Map<string, GraphModel>;
  ensembles: Map<string, GraphEnsemble>;
}

/**
 * An ensemble laid out with its top left corner at (0, 0): its boxes, its nested ensembles'
 * frames and its arrows (theirs included), and the boxes of its inputs and outputs by tensor
 * name, where the arrows of the ensemble that runs it end.
 */
interface Block {
  width: number;
  height: number;
  boxes: BoxView[];
  frames: FrameView[];
  arrows: ArrowView[];
  inputs: Map<string, BoxView>;
  outputs: Map<string, BoxView>;
}

/** A thing of a column: a box, or the frame of a nested ensemble with its block inside. */
type Item = { box: BoxView } | { frame: FrameView; inner: Block };

/** Where an arrow ends: a box, or a frame's edge (a tensor its ensemble does not declare). */
type End = Pick<BoxView, 'id' | 'x' | 'y' | 'width' | 'height'>;

function rect(item: Item): End {
  return 'box' in item ? item.box : item.frame;
}

function stepWhere(node: GraphNode): string {
  return node.kind === 'step' ? `step ${node.step}: ` : `${node.kind}: `;
}

function nodeBox(node: GraphNode, id: string, model: GraphModel | undefined, cycle: boolean): BoxView {
  const lines = cycle ? [node.name, 'ensemble', 'runs itself: not expanded'] : nodeLines(node, model);
  const findings = [...node.findings, ...(model?.findings ?? [])];
  const open = model?.uri ?? undefined;
  return {
    id,
    kind: node.kind,
    lines,
    x: 0,
    y: 0,
    width: Math.max(...lines.map((line) => line.length)) * CHARACTER + 2 * PADDING,
    height: lines.length * LINE + PADDING,
    severity: worst(findings),
    cycle: cycle || undefined,
    tooltip: [
      stepWhere(node) + lines.join(' · '),
      ...findingLines(findings),
      ...(open ? ['Click to open its config.'] : []),
    ].join('\n'),
    open,
  };
}

function nestedFrame(node: GraphNode, id: string, model: GraphModel | undefined, inner: Block): FrameView {
  const title = `${stepWhere(node)}${node.name} (ensemble)`;
  const findings = [...node.findings, ...(model?.findings ?? [])];
  const open = model?.uri ?? undefined;
  return {
    id,
    title,
    x: 0,
    y: 0,
    width: Math.max(inner.width, title.length * CHARACTER) + 2 * FRAME_PADDING,
    height: inner.height + FRAME_TITLE + FRAME_PADDING,
    severity: worst(findings),
    tooltip: [title, ...findingLines(findings), ...(open ? ['Click its name to open its config.'] : [])].join('\n'),
    open,
  };
}

/** Moves everything of `block` by (dx, dy). */
function shift(block: Block, dx: number, dy: number): void {
  for (const thing of [...block.boxes, ...block.frames]) {
    thing.x += dx;
    thing.y += dy;
  }
  for (const arrow of block.arrows) {
    arrow.x1 += dx;
    arrow.x2 += dx;
    arrow.y1 += dy;
    arrow.y2 += dy;
  }
}

function arrow(edge: GraphEdge, from: End, to: End): ArrowView {
  const label = tensorLabel(edge);
  return {
    from: from.id,
    to: to.id,
    label,
    x1: from.x + from.width,
    y1: from.y + from.height / 2,
    x2: to.x,
    y2: to.y + to.height / 2,
    severity: worst(edge.findings),
    tooltip: [
      label,
      placeLine('written', edge.writer),
      placeLine('read', edge.reader),
      ...findingLines(edge.findings),
    ].join('\n'),
    reveal: edge.writer ?? edge.reader ?? undefined,
  };
}

/**
 * Lays out `ensemble`: a step that runs another ensemble of the answer is that ensemble's
 * block in a frame, laid out the same way, unless it is one of `around` (the ensembles it is
 * drawn inside of): that cycle is a box, marked, not expanded again. `prefix` keeps the ids of
 * a nested ensemble's boxes apart from the outer ones' (`step:1/step:0`).
 */
function block(ensemble: GraphEnsemble, known: Known, prefix: string, around: ReadonlySet<string>): Block {
  const inside = new Set([...around, ensemble.name]);
  const items = new Map<string, Item>();
  for (const node of ensemble.nodes) {
    const id = prefix + node.id;
    const model = node.kind === 'step' ? known.models.get(node.name) : undefined;
    const nested = node.kind === 'step' ? known.ensembles.get(node.name) : undefined;
    if (nested && !inside.has(nested.name)) {
      const inner = block(nested, known, `${id}/`, inside);
      items.set(node.id, { frame: nestedFrame(node, id, model, inner), inner });
    } else {
      items.set(node.id, { box: nodeBox(node, id, model, nested !== undefined) });
    }
  }
  // Columns left to right, each as wide as its widest item; items top to bottom in node order.
  const column = columns(ensemble);
  const count = Math.max(0, ...column.values()) + 1;
  const byColumn: Item[][] = Array.from({ length: count }, () => []);
  for (const node of ensemble.nodes) {
    byColumn[column.get(node.id) ?? 0].push(items.get(node.id)!);
  }
  const heights = byColumn.map(
    (stack) => stack.reduce((sum, item) => sum + rect(item).height, 0) + ROW_GAP * Math.max(0, stack.length - 1),
  );
  const tallest = Math.max(0, ...heights);
  // The gap after a column holds the labels of the arrows that leave it.
  const gaps = byColumn.map(() => COLUMN_GAP);
  for (const edge of ensemble.edges) {
    const index = column.get(edge.source) ?? 0;
    gaps[index] = Math.max(gaps[index], tensorLabel(edge).length * LABEL_CHARACTER + 2 * PADDING);
  }
  const laid: Block = {
    width: 0,
    height: tallest,
    boxes: [],
    frames: [],
    arrows: [],
    inputs: new Map(),
    outputs: new Map(),
  };
  let x = 0;
  byColumn.forEach((stack, index) => {
    let y = (tallest - heights[index]) / 2;
    for (const item of stack) {
      const place = rect(item);
      place.x = x;
      place.y = y;
      y += place.height + ROW_GAP;
    }
    const widest = Math.max(0, ...stack.map((item) => rect(item).width));
    laid.width = x + widest;
    x += widest + gaps[index];
  });
  // Each nested block moved into its frame, under the frame's title.
  for (const node of ensemble.nodes) {
    const item = items.get(node.id)!;
    if ('box' in item) {
      laid.boxes.push(item.box);
      if (node.kind === 'input') {
        laid.inputs.set(node.name, item.box);
      } else if (node.kind === 'output') {
        laid.outputs.set(node.name, item.box);
      }
    } else {
      const { frame, inner } = item;
      shift(inner, frame.x + FRAME_PADDING, frame.y + FRAME_TITLE);
      laid.frames.push(frame, ...inner.frames);
      laid.boxes.push(...inner.boxes);
      laid.arrows.push(...inner.arrows);
    }
  }
  // An arrow into a frame ends at the nested ensemble's input of the step's key (else at the
  // frame's edge); one out of a frame starts at its output of that key.
  const end = (node: string, key: string, side: 'inputs' | 'outputs'): End | undefined => {
    const item = items.get(node);
    if (!item) {
      return undefined;
    }
    return 'box' in item ? item.box : (item.inner[side].get(key) ?? item.frame);
  };
  for (const edge of ensemble.edges) {
    const from = end(edge.source, edge.source_key, 'outputs');
    const to = end(edge.target, edge.target_key, 'inputs');
    if (from && to) {
      laid.arrows.push(arrow(edge, from, to));
    }
  }
  return laid;
}

/** The names of the ensembles that a step of another ensemble of `ensembles` runs. */
function nestedNames(ensembles: GraphEnsemble[]): Set<string> {
  const names = new Set(ensembles.map((ensemble) => ensemble.name));
  return new Set(
    ensembles.flatMap((ensemble) =>
      ensemble.nodes
        .filter((n) => n.kind === 'step' && n.name !== ensemble.name && names.has(n.name))
        .map((n) => n.name),
    ),
  );
}

/** Every ensemble name that `ensemble` draws inside itself, its own included. */
function drawnInside(ensemble: GraphEnsemble, known: Known, found = new Set<string>()): Set<string> {
  found.add(ensemble.name);
  for (const node of ensemble.nodes) {
    const nested = node.kind === 'step' ? known.ensembles.get(node.name) : undefined;
    if (nested && !found.has(nested.name)) {
      drawnInside(nested, known, found);
    }
  }
  return found;
}

function panel(ensemble: GraphEnsemble, known: Known): PanelView {
  const laid = block(ensemble, known, '', new Set());
  shift(laid, MARGIN, TITLE + MARGIN);
  return {
    title: `${ensemble.name} (ensemble)`,
    width: Math.max(laid.width + MARGIN, ensemble.name.length * CHARACTER + 80) + MARGIN,
    height: TITLE + laid.height + 2 * MARGIN,
    boxes: laid.boxes,
    frames: laid.frames,
    arrows: laid.arrows,
  };
}

/**
 * The ensembles drawn as panels of their own: those no other ensemble of the answer runs (the
 * one asked about first), then, of the ones left (ensembles that run each other in a cycle),
 * each that no panel drew yet.
 */
function tops(ensembles: GraphEnsemble[], known: Known, asked: string | null): GraphEnsemble[] {
  const nested = nestedNames(ensembles);
  const first = (a: GraphEnsemble, b: GraphEnsemble) => Number(b.name === asked) - Number(a.name === asked);
  const order = [
    ...ensembles.filter((e) => !nested.has(e.name)).sort(first),
    ...ensembles.filter((e) => nested.has(e.name)).sort(first),
  ];
  const drawn = new Set<string>();
  return order.filter((ensemble) => {
    if (drawn.has(ensemble.name)) {
      return false;
    }
    drawnInside(ensemble, known).forEach((name) => drawn.add(name));
    return true;
  });
}

/**
 * The picture of the server's answer: a panel per ensemble (the one asked about first), or,
 * for a model no ensemble runs, that model alone.
 */
export function graphView(answer: GraphAnswer): GraphView {
  const repository = answer.repositories[0];
  if (!repository) {
    return { heading: 'No model repository holds this config.', panels: [], unconnected: [] };
  }
  const models = new Map(repository.models.map((model) => [model.name, model]));
  const known: Known = { models, ensembles: new Map(repository.ensembles.map((e) => [e.name, e])) };
  const panels = tops(repository.ensembles, known, answer.model).map((ensemble) => panel(ensemble, known));
  const name = answer.model ?? '';
  let heading: string;
  if (answer.model === null) {
    heading = 'The ensembles of the repository';
  } else if (panels.length === 0) {
    heading = `${name} is run by no ensemble.`;
  } else if (answer.model !== null && models.get(answer.model)?.ensemble) {
    heading = `Ensemble ${name}`;
  } else {
    heading = `The ensembles that run ${name}`;
  }
  return { heading, panels, unconnected: repository.in_no_ensemble };
}
