/**
 * The server's state as the user sees it, and when a problem earns a notification.
 *
 * A problem is shown in the status items and the output channel for as long as it lasts; a
 * notification comes once per distinct problem: restarting into the same problem (a setting
 * still wrong after an edit) does not notify again. Once the server is ready the problem is
 * over: the error state is cleared, and the same problem coming back later notifies again.
 * The notification closes itself when its problem is over (see `noticeOutlives`), so a problem
 * the user fixed leaves nothing on screen.
 */
import type { ServerState } from './status';

export interface ProblemState {
  state: ServerState;
  /** The problems notified since the server was last ready. */
  notified: readonly string[];
}

export type ProblemEvent =
  | { type: 'starting' }
  | { type: 'ready' }
  /** A problem the user can act on: notified once. */
  | { type: 'problem'; message: string }
  /** The server stopped by itself: shown, not notified (the language client says why). */
  | { type: 'stopped'; reason: string };

export const INITIAL: ProblemState = { state: { kind: 'starting' }, notified: [] };

/** The next state, and the message to notify, if any. */
export function reduce(current: ProblemState, event: ProblemEvent): { next: ProblemState; notify?: string } {
  switch (event.type) {
    case 'starting':
      return { next: { ...current, state: { kind: 'starting' } } };
    case 'ready':
      return { next: { state: { kind: 'ready' }, notified: [] } };
    case 'stopped':
      return { next: { ...current, state: { kind: 'error', reason: event.reason } } };
    case 'problem': {
      const state: ServerState = { kind: 'error', reason: event.message };
      if (current.notified.includes(event.message)) {
        return { next: { ...current, state } };
      }
      return { next: { state, notified: [...current.notified, event.message] }, notify: event.message };
    }
  }
}

/**
 * Whether the notification of `problem` stays open in `state`: while that problem lasts, and
 * while the server starts again (into the same problem, or out of it); not once the server is
 * ready or another problem is shown (it has its own notification).
 */
export function noticeOutlives(problem: string, state: ServerState): boolean {
  return state.kind === 'starting' || (state.kind === 'error' && state.reason === problem);
}
