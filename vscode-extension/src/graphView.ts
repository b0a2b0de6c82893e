/**
 * The ensemble graph: the server's answer to `tritonlint/graph` (docs/editors.md, "The ensemble
 * graph") and the picture made of it: a panel per ensemble, its boxes laid out in columns (a
 * box's column is the longest chain of arrows leading to it, the ensemble's outputs in the
 * last), its arrows labelled with the tensor as `tritonlint graph` labels them. Pure: the
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

function panel(ensemble: GraphEnsemble, models: Map<string, GraphModel>): PanelView {
  const column = columns(ensemble);
  const boxes: BoxView[] = ensemble.nodes.map((node) => {
    const model = node.kind === 'step' ? models.get(node.name) : undefined;
    const lines = nodeLines(node, model);
    const findings = [...node.findings, ...(model?.findings ?? [])];
    const open = model?.uri ?? undefined;
    const where = node.kind === 'step' ? `step ${node.step}: ` : `${node.kind}: `;
    return {
      id: node.id,
      kind: node.kind,
      lines,
      x: 0,
      y: 0,
      width: Math.max(...lines.map((line) => line.length)) * CHARACTER + 2 * PADDING,
      height: lines.length * LINE + PADDING,
      severity: worst(findings),
      tooltip: [
        where + lines.join(' · '),
        ...findingLines(findings),
        ...(open ? ['Click to open its config.'] : []),
      ].join('\n'),
      open,
    };
  });
  // Columns left to right, each as wide as its widest box; boxes top to bottom in node order.
  const count = Math.max(0, ...column.values()) + 1;
  const byColumn: BoxView[][] = Array.from({ length: count }, () => []);
  for (const box of boxes) {
    byColumn[column.get(box.id) ?? 0].push(box);
  }
  const heights = byColumn.map((items) => items.reduce((sum, b) => sum + b.height, 0) + ROW_GAP * (items.length - 1));
  const tallest = Math.max(0, ...heights);
  // The gap after a column holds the labels of the arrows that leave it.
  const gaps = byColumn.map(() => COLUMN_GAP);
  for (const edge of ensemble.edges) {
    const index = column.get(edge.source) ?? 0;
    gaps[index] = Math.max(gaps[index], tensorLabel(edge).length * LABEL_CHARACTER + 2 * PADDING);
  }
  let x = MARGIN;
  byColumn.forEach((items, index) => {
    let y = TITLE + MARGIN + (tallest - heights[index]) / 2;
    for (const box of items) {
      box.x = x;
      box.y = y;
      y += box.height + ROW_GAP;
    }
    x += Math.max(0, ...items.map((b) => b.width)) + gaps[index];
  });
  const byId = new Map(boxes.map((box) => [box.id, box]));
  const arrows: ArrowView[] = ensemble.edges.flatMap((edge) => {
    const from = byId.get(edge.source);
    const to = byId.get(edge.target);
    if (!from || !to) {
      return [];
    }
    const label = tensorLabel(edge);
    return [
      {
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
      },
    ];
  });
  const right = Math.max(0, ...boxes.map((b) => b.x + b.width));
  return {
    title: `${ensemble.name} (ensemble)`,
    width: Math.max(right, ensemble.name.length * CHARACTER + 80) + MARGIN,
    height: TITLE + tallest + 2 * MARGIN,
    boxes,
    arrows,
  };
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
  const ensembles = [...repository.ensembles].sort(
    (a, b) => Number(b.name === answer.model) - Number(a.name === answer.model),
  );
  const panels = ensembles.map((ensemble) => panel(ensemble, models));
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
