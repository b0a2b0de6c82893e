import { describe, expect, it } from 'vitest';

import { type GraphAnswer, type GraphEdge, type GraphModel, columns, graphView, tensorLabel } from '../src/graphView';
import { page } from '../src/graphPage';

const place = (line: number, text: string) => ({
  uri: 'file:///repo/pipeline/config.pbtxt',
  range: { start: { line, character: 6 }, end: { line, character: 20 } },
  text,
});

function model(name: string, extra: Partial<GraphModel> = {}): GraphModel {
  return {
    name,
    platform: 'onnxruntime_onnx',
    backend: 'onnxruntime',
    max_batch_size: 8,
    instance_kinds: ['KIND_CPU'],
    ensemble: false,
    missing: false,
    findings: [],
    uri: `file:///repo/${name}/config.pbtxt`,
    ...extra,
  };
}

function edge(source: string, target: string, tensor: string, extra: Partial<GraphEdge> = {}): GraphEdge {
  return {
    source,
    target,
    tensor,
    data_type: 'TYPE_FP32',
    dims: [3, 224, 224],
    batched: true,
    source_key: '',
    target_key: '',
    findings: [],
    writer: null,
    reader: null,
    ...extra,
  };
}

const TL713 = {
  code: 'TL713',
  severity: 'error' as const,
  message: 'in ensemble pipeline, step classifier: input images is not an input of classifier',
  path: 'pipeline/config.pbtxt',
  line: 17,
  column: 24,
};

/** The answer for tests/vscode/model_repository's pipeline, as the server gives it. */
const ANSWER: GraphAnswer = {
  version: 1,
  model: 'pipeline',
  repositories: [
    {
      root: '/repo',
      models: [
        model('classifier', { findings: [] }),
        model('pipeline', { platform: 'ensemble', backend: '', instance_kinds: [], ensemble: true }),
        model('preprocess'),
        model('scorer', { missing: true, uri: null, platform: '', backend: '', instance_kinds: [] }),
      ],
      ensembles: [
        {
          name: 'pipeline',
          nodes: [
            { id: 'input:IMAGE', kind: 'input', name: 'IMAGE', findings: [] },
            { id: 'step:0', kind: 'step', name: 'preprocess', step: 0, findings: [] },
            { id: 'step:1', kind: 'step', name: 'classifier', step: 1, findings: [TL713] },
            { id: 'step:2', kind: 'step', name: 'scorer', step: 2, findings: [] },
            { id: 'output:LOGITS', kind: 'output', name: 'LOGITS', findings: [] },
          ],
          edges: [
            edge('input:IMAGE', 'step:0', 'IMAGE', { data_type: 'TYPE_UINT8', dims: [-1, -1, 3] }),
            edge('step:0', 'step:1', 'pixels', {
              writer: place(11, 'output_map { key: "PIXELS", value: "pixels" }'),
              reader: place(16, 'input_map { key: "images", value: "pixels" }'),
              findings: [TL713],
            }),
            edge('step:1', 'output:LOGITS', 'LOGITS', { dims: [1000] }),
            edge('step:0', 'step:2', 'gray', { data_type: '', dims: [], batched: false }),
          ],
        },
      ],
      in_no_ensemble: ['detector'],
    },
  ],
};

describe('graphView', () => {
  const view = graphView(ANSWER);
  const [panel] = view.panels;
  const box = (id: string) => panel.boxes.find((b) => b.id === id)!;
  const arrow = (label: string) => panel.arrows.find((a) => a.label.startsWith(label))!;

  it('draws one panel per ensemble, titled, with the models in no ensemble listed', () => {
    expect(view.heading).toBe('Ensemble pipeline');
    expect(view.panels.map((p) => p.title)).toEqual(['pipeline (ensemble)']);
    expect(view.unconnected).toEqual(['detector']);
  });

  it("labels the boxes as tritonlint graph does, and a step's box opens its config", () => {
    expect(panel.boxes.map((b) => b.lines)).toEqual([
      ['IMAGE'],
      ['preprocess', 'onnxruntime_onnx', 'max_batch_size 8 · CPU'],
      ['classifier', 'onnxruntime_onnx', 'max_batch_size 8 · CPU'],
      ['scorer', 'no such model'],
      ['LOGITS'],
    ]);
    expect(box('step:1').open).toBe('file:///repo/classifier/config.pbtxt');
    expect(box('step:2').open).toBeUndefined(); // no config to open
    expect(box('input:IMAGE').open).toBeUndefined();
  });

  it('labels the arrows with the tensor, its type and shape, B the batch', () => {
    expect(panel.arrows.map((a) => [a.from, a.to, a.label])).toEqual([
      ['input:IMAGE', 'step:0', 'IMAGE: UINT8 [B,-1,-1,3]'],
      ['step:0', 'step:1', 'pixels: FP32 [B,3,224,224]'],
      ['step:1', 'output:LOGITS', 'LOGITS: FP32 [B,1000]'],
      ['step:0', 'step:2', 'gray'],
    ]);
    expect(tensorLabel(edge('a', 'b', 'x', { batched: false, dims: [4] }))).toBe('x: FP32 [4]');
  });

  it("an arrow's hover says where the tensor is written and read, and its findings", () => {
    expect(arrow('pixels').tooltip).toBe(
      [
        'pixels: FP32 [B,3,224,224]',
        'written: output_map { key: "PIXELS", value: "pixels" } (pipeline/config.pbtxt:12)',
        'read: input_map { key: "images", value: "pixels" } (pipeline/config.pbtxt:17)',
        `error TL713 (line 17): ${TL713.message}`,
      ].join('\n'),
    );
    expect(arrow('pixels').reveal?.range.start.line).toBe(11);
    expect(arrow('IMAGE').tooltip.split('\n').slice(1)).toEqual(['written: nothing', 'read: nothing']);
  });

  it('marks what findings are about with their severity', () => {
    expect(box('step:1').severity).toBe('error');
    expect(arrow('pixels').severity).toBe('error');
    expect(box('step:0').severity).toBeUndefined();
    expect(arrow('LOGITS').severity).toBeUndefined();
  });

  it('lays the boxes out in columns by the longest chain leading to them, outputs last', () => {
    expect(Object.fromEntries(columns(ANSWER.repositories[0].ensembles[0]))).toEqual({
      'input:IMAGE': 0,
      'step:0': 1,
      'step:1': 2,
      'step:2': 2,
      'output:LOGITS': 3,
    });
    const x = (id: string) => box(id).x;
    expect(x('input:IMAGE')).toBeLessThan(x('step:0'));
    expect(x('step:0')).toBeLessThan(x('step:1'));
    expect(x('step:1')).toBe(x('step:2'));
    expect(x('step:1')).toBeLessThan(x('output:LOGITS'));
    // Boxes of one column do not overlap; every box is inside the panel.
    expect(box('step:1').y + box('step:1').height).toBeLessThan(box('step:2').y);
    for (const b of panel.boxes) {
      expect(b.x + b.width).toBeLessThanOrEqual(panel.width);
      expect(b.y + b.height).toBeLessThanOrEqual(panel.height);
    }
    // An arrow goes from its writer's right edge to its reader's left edge.
    const pixels = arrow('pixels');
    expect([pixels.x1, pixels.x2]).toEqual([x('step:0') + box('step:0').width, x('step:1')]);
    // Wide enough for its label between the boxes.
    expect(pixels.x2 - pixels.x1).toBeGreaterThanOrEqual(pixels.label.length * 6.5);
  });

  it('survives a cycle of a broken ensemble', () => {
    const looping = {
      name: 'loop',
      nodes: ANSWER.repositories[0].ensembles[0].nodes.slice(1, 3),
      edges: [] as GraphEdge[],
    };
    looping.edges = [edge('step:0', 'step:1', 'a'), edge('step:1', 'step:0', 'b')];
    expect(columns(looping).size).toBe(2);
  });

  it('says so for a model that no ensemble runs, and for a config outside any repository', () => {
    const alone: GraphAnswer = {
      version: 1,
      model: 'detector',
      repositories: [{ root: '/repo', models: [model('detector')], ensembles: [], in_no_ensemble: ['detector'] }],
    };
    expect(graphView(alone)).toEqual({
      heading: 'detector is run by no ensemble.',
      panels: [],
      unconnected: ['detector'],
    });
    expect(graphView({ version: 1, model: null, repositories: [] }).panels).toEqual([]);
  });

  it('puts the ensemble asked about first, after the ones that run a model', () => {
    const two: GraphAnswer = {
      ...ANSWER,
      model: 'inner',
      repositories: [
        {
          ...ANSWER.repositories[0],
          models: [...ANSWER.repositories[0].models, model('inner', { ensemble: true })],
          ensembles: [
            { name: 'a_outer', nodes: [], edges: [] },
            { name: 'inner', nodes: [], edges: [] },
          ],
        },
      ],
    };
    expect(graphView(two).panels.map((p) => p.title)).toEqual(['inner (ensemble)', 'a_outer (ensemble)']);
    expect(graphView({ ...two, model: 'preprocess' }).heading).toBe('The ensembles that run preprocess');
  });
});

describe('the webview page', () => {
  const html = page('vscode-webview://x', 'vscode-webview://x/dist/graphView.js', 'N0NCE');

  it('allows its own script and style alone: no network, no inline script', () => {
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    expect(policy).toBe(
      "default-src 'none'; script-src vscode-webview://x 'nonce-N0NCE'; style-src 'nonce-N0NCE'; font-src vscode-webview://x",
    );
    expect(html).toContain('<script nonce="N0NCE" src="vscode-webview://x/dist/graphView.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
  });
});

/** `ocr` runs the ensemble `detect_pipeline` (which runs `detect`), then `read`. */
const NESTED: GraphAnswer = {
  version: 1,
  model: 'ocr',
  repositories: [
    {
      root: '/repo',
      models: [
        model('detect'),
        model('detect_pipeline', { platform: 'ensemble', ensemble: true, instance_kinds: [] }),
        model('ocr', { platform: 'ensemble', ensemble: true, instance_kinds: [] }),
        model('read', { findings: [{ ...TL713, code: 'TL105', severity: 'warning', path: 'read/config.pbtxt' }] }),
      ],
      ensembles: [
        {
          name: 'detect_pipeline',
          nodes: [
            { id: 'input:IMAGE', kind: 'input', name: 'IMAGE', findings: [] },
            { id: 'step:0', kind: 'step', name: 'detect', step: 0, findings: [TL713] },
            { id: 'output:BOXES', kind: 'output', name: 'BOXES', findings: [] },
          ],
          edges: [
            edge('input:IMAGE', 'step:0', 'IMAGE', { target_key: 'IMAGE', findings: [TL713] }),
            edge('step:0', 'output:BOXES', 'BOXES', { source_key: 'BOXES', dims: [-1, 4] }),
          ],
        },
        {
          name: 'ocr',
          nodes: [
            { id: 'input:IMAGE', kind: 'input', name: 'IMAGE', findings: [] },
            { id: 'step:0', kind: 'step', name: 'detect_pipeline', step: 0, findings: [] },
            { id: 'step:1', kind: 'step', name: 'read', step: 1, findings: [] },
            { id: 'output:TEXT', kind: 'output', name: 'TEXT', findings: [] },
          ],
          edges: [
            edge('input:IMAGE', 'step:0', 'IMAGE', { target_key: 'IMAGE' }),
            edge('step:0', 'step:1', 'boxes', { source_key: 'BOXES', target_key: 'BOXES', dims: [-1, 4] }),
            edge('step:1', 'output:TEXT', 'TEXT', { source_key: 'TEXT', data_type: 'TYPE_STRING', dims: [-1] }),
          ],
        },
      ],
      in_no_ensemble: [],
    },
  ],
};

type Rect = { x: number; y: number; width: number; height: number };
const within = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const apart = (a: Rect, b: Rect) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

describe('a nested ensemble', () => {
  const view = graphView(NESTED);
  const [panel] = view.panels;
  const box = (id: string) => panel.boxes.find((b) => b.id === id)!;
  const [frame] = panel.frames;

  it('is a frame in the panel of the ensemble that runs it, in place of its step, not a panel of its own', () => {
    expect(view.panels.map((p) => p.title)).toEqual(['ocr (ensemble)']);
    expect(panel.frames.map((f) => [f.id, f.title])).toEqual([['step:0', 'step 0: detect_pipeline (ensemble)']]);
    expect(panel.boxes.map((b) => [b.id, b.lines[0]])).toEqual([
      ['input:IMAGE', 'IMAGE'],
      ['step:0/input:IMAGE', 'IMAGE'],
      ['step:0/step:0', 'detect'],
      ['step:0/output:BOXES', 'BOXES'],
      ['step:1', 'read'],
      ['output:TEXT', 'TEXT'],
    ]);
  });

  it('holds its boxes inside the frame, clear of its title, the frame clear of the other boxes', () => {
    for (const id of ['step:0/input:IMAGE', 'step:0/step:0', 'step:0/output:BOXES']) {
      expect(within(box(id), frame)).toBe(true);
      expect(box(id).y).toBeGreaterThanOrEqual(frame.y + 20);
    }
    for (const id of ['input:IMAGE', 'step:1', 'output:TEXT']) {
      expect(apart(box(id), frame)).toBe(true);
    }
    for (const [i, a] of panel.boxes.entries()) {
      for (const b of panel.boxes.slice(i + 1)) {
        expect(apart(a, b), `${a.id} and ${b.id}`).toBe(true);
      }
    }
    expect(within(frame, { x: 0, y: 0, width: panel.width, height: panel.height })).toBe(true);
  });

  it("takes the step's tensors to its inputs and from its outputs; its own arrows stay inside", () => {
    expect(panel.arrows.map((a) => [a.from, a.to, a.label])).toEqual([
      ['step:0/input:IMAGE', 'step:0/step:0', 'IMAGE: FP32 [B,3,224,224]'],
      ['step:0/step:0', 'step:0/output:BOXES', 'BOXES: FP32 [B,-1,4]'],
      ['input:IMAGE', 'step:0/input:IMAGE', 'IMAGE: FP32 [B,3,224,224]'],
      ['step:0/output:BOXES', 'step:1', 'boxes: FP32 [B,-1,4]'],
      ['step:1', 'output:TEXT', 'TEXT: STRING [B,-1]'],
    ]);
    for (const a of panel.arrows) {
      const from = box(a.from);
      const to = box(a.to);
      expect([a.x1, a.y1]).toEqual([from.x + from.width, from.y + from.height / 2]);
      expect([a.x2, a.y2]).toEqual([to.x, to.y + to.height / 2]);
      expect(a.x1).toBeLessThan(a.x2);
    }
  });

  it("opens the nested ensemble's config from its title, its models' from their boxes, and marks findings inside", () => {
    expect(frame.open).toBe('file:///repo/detect_pipeline/config.pbtxt');
    expect(box('step:0/step:0').open).toBe('file:///repo/detect/config.pbtxt');
    expect(box('step:0/step:0').severity).toBe('error');
    expect(panel.arrows[0].severity).toBe('error');
    expect(box('step:1').severity).toBe('warning');
    expect(frame.severity).toBeUndefined();
  });

  it("ends an arrow at the frame's edge for a tensor the nested ensemble does not declare", () => {
    const [, ocr] = NESTED.repositories[0].ensembles;
    const odd: GraphAnswer = structuredClone(NESTED);
    odd.repositories[0].ensembles[1] = {
      ...ocr,
      edges: [edge('input:IMAGE', 'step:0', 'IMAGE', { target_key: 'PICTURE' }), ...ocr.edges.slice(1)],
    };
    const [only] = graphView(odd).panels;
    const into = only.arrows.find((a) => a.from === 'input:IMAGE')!;
    expect(into.to).toBe('step:0');
    expect(into.x2).toBe(only.frames[0].x);
  });

  it('nests deeper ensembles recursively, each frame inside the one that runs it', () => {
    const deeper: GraphAnswer = structuredClone(NESTED);
    const repository = deeper.repositories[0];
    repository.models.push(model('top', { platform: 'ensemble', ensemble: true, instance_kinds: [] }));
    repository.ensembles.push({
      name: 'top',
      nodes: [
        { id: 'input:IMAGE', kind: 'input', name: 'IMAGE', findings: [] },
        { id: 'step:0', kind: 'step', name: 'ocr', step: 0, findings: [] },
      ],
      edges: [edge('input:IMAGE', 'step:0', 'IMAGE', { target_key: 'IMAGE' })],
    });
    const [top] = graphView({ ...deeper, model: 'top' }).panels;
    expect(top.title).toBe('top (ensemble)');
    expect(top.frames.map((f) => f.id)).toEqual(['step:0', 'step:0/step:0']);
    expect(within(top.frames[1], top.frames[0])).toBe(true);
    const detect = top.boxes.find((b) => b.id === 'step:0/step:0/step:0')!;
    expect(detect.lines[0]).toBe('detect');
    expect(within(detect, top.frames[1])).toBe(true);
    const into = top.arrows.find((a) => a.from === 'input:IMAGE')!;
    expect(into.to).toBe('step:0/input:IMAGE');
  });

  it('draws an ensemble that runs itself once, the step that closes the cycle a marked box', () => {
    const cyclic: GraphAnswer = structuredClone(NESTED);
    const [detectPipeline] = cyclic.repositories[0].ensembles;
    // detect_pipeline's step runs ocr, which runs detect_pipeline.
    detectPipeline.nodes[1].name = 'ocr';
    const view = graphView({ ...cyclic, model: 'ocr' });
    expect(view.panels.map((p) => p.title)).toEqual(['ocr (ensemble)']);
    const [only] = view.panels;
    expect(only.frames.map((f) => f.title)).toEqual(['step 0: detect_pipeline (ensemble)']);
    const closing = only.boxes.find((b) => b.id === 'step:0/step:0')!;
    expect(closing.lines).toEqual(['ocr', 'ensemble', 'runs itself: not expanded']);
    expect(closing.cycle).toBe(true);
    expect(closing.open).toBe('file:///repo/ocr/config.pbtxt');
    // An ensemble whose own step runs it, asked about alone.
    const selfish: GraphAnswer = structuredClone(NESTED);
    const [own] = selfish.repositories[0].ensembles;
    own.nodes[1].name = 'detect_pipeline';
    selfish.repositories[0].ensembles = [own];
    const panels = graphView({ ...selfish, model: 'detect_pipeline' }).panels;
    expect(panels.map((p) => [p.title, p.frames.length])).toEqual([['detect_pipeline (ensemble)', 0]]);
    expect(panels[0].boxes.find((b) => b.id === 'step:0')!.cycle).toBe(true);
  });
});
