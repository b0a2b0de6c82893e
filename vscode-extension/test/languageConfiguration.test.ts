import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

const configuration = JSON.parse(readFileSync(resolve(__dirname, '..', 'language-configuration.json'), 'utf8'));
const increase = new RegExp(configuration.indentationRules.increaseIndentPattern);
const decrease = new RegExp(configuration.indentationRules.decreaseIndentPattern);

describe('indentation rules', () => {
  it('indent the line after one that opens a message or a list', () => {
    for (const line of [
      'input [',
      '  {',
      'dynamic_batching {',
      'optimization <',
      'dims: [',
      'step [  # the steps',
      'key: "a{" value {',
    ]) {
      expect(increase.test(line), line).toBe(true);
    }
  });

  it('do not indent after a line whose brackets are closed, or in a string or comment', () => {
    for (const line of [
      'dims: [ 1, 2 ]',
      '{ name: "x" }',
      'name: "a {"',
      '# input [',
      'name: "x"  # a [',
      "label: 'see <'",
    ]) {
      expect(increase.test(line), line).toBe(false);
    }
  });

  it('outdent a line that closes one', () => {
    for (const line of ['}', '  ]', '>', '  } ]']) {
      expect(decrease.test(line), line).toBe(true);
    }
    expect(decrease.test('  name: "}"')).toBe(false);
  });
});
