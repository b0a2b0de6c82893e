import { describe, expect, it } from 'vitest';

import { INITIAL, type ProblemEvent, type ProblemState, noticeOutlives, reduce } from '../src/problemState';

/** The states and notifications after each event in turn. */
function run(events: ProblemEvent[], from: ProblemState = INITIAL): { state: ProblemState; notified: string[] } {
  let state = from;
  const notified: string[] = [];
  for (const event of events) {
    const { next, notify } = reduce(state, event);
    state = next;
    if (notify !== undefined) {
      notified.push(notify);
    }
  }
  return { state, notified };
}

const NOT_FOUND = 'tritonlint was not found: there is no tritonlint on the PATH.';
const TOO_OLD = 'tritonlint 0.0.1 (on the PATH) is older than 0.1.0.';

describe('reduce', () => {
  it('starts in the starting state, and is ready once the server runs', () => {
    expect(INITIAL.state).toEqual({ kind: 'starting' });
    expect(run([{ type: 'ready' }]).state.state).toEqual({ kind: 'ready' });
  });

  it('notifies a problem once, however many restarts run into it', () => {
    const { state, notified } = run([
      { type: 'problem', message: NOT_FOUND },
      { type: 'starting' },
      { type: 'problem', message: NOT_FOUND },
      { type: 'starting' },
      { type: 'problem', message: NOT_FOUND },
    ]);
    expect(notified).toEqual([NOT_FOUND]);
    expect(state.state).toEqual({ kind: 'error', reason: NOT_FOUND });
  });

  it('shows a restart as starting, the problem aside until it comes again', () => {
    const { state } = run([{ type: 'problem', message: NOT_FOUND }, { type: 'starting' }]);
    expect(state.state).toEqual({ kind: 'starting' });
  });

  it('notifies another problem', () => {
    const { notified, state } = run([
      { type: 'problem', message: NOT_FOUND },
      { type: 'starting' },
      { type: 'problem', message: TOO_OLD },
    ]);
    expect(notified).toEqual([NOT_FOUND, TOO_OLD]);
    expect(state.state).toEqual({ kind: 'error', reason: TOO_OLD });
  });

  it('clears the error when the server is ready, and notifies a problem that comes back', () => {
    const fixed = run([{ type: 'problem', message: NOT_FOUND }, { type: 'starting' }, { type: 'ready' }]);
    expect(fixed.state).toEqual({ state: { kind: 'ready' }, notified: [] });
    const again = run([{ type: 'starting' }, { type: 'problem', message: NOT_FOUND }], fixed.state);
    expect(again.notified).toEqual([NOT_FOUND]);
  });

  it('shows a server that stopped by itself as an error, without a notification', () => {
    const { state, notified } = run([{ type: 'ready' }, { type: 'stopped', reason: 'the server stopped' }]);
    expect(notified).toEqual([]);
    expect(state.state).toEqual({ kind: 'error', reason: 'the server stopped' });
  });
});

describe('noticeOutlives', () => {
  const problem = 'tritonlint was not found';
  it('keeps the notification while the problem lasts and while the server starts again', () => {
    expect(noticeOutlives(problem, { kind: 'error', reason: problem })).toBe(true);
    expect(noticeOutlives(problem, { kind: 'starting' })).toBe(true);
  });
  it('closes it once the server is ready or another problem is shown', () => {
    expect(noticeOutlives(problem, { kind: 'ready' })).toBe(false);
    expect(noticeOutlives(problem, { kind: 'error', reason: 'tritonlint 0.0.1 is too old' })).toBe(false);
  });
});
