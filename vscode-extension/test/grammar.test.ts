import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..');
let grammar: textmate.IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(resolve(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      const path = resolve(ROOT, 'syntaxes/pbtxt.tmLanguage.json');
      return scopeName === 'source.pbtxt' ? textmate.parseRawGrammar(readFileSync(path, 'utf8'), path) : null;
    },
  });
  const loaded = await registry.loadGrammar('source.pbtxt');
  if (!loaded) {
    throw new Error('the grammar did not load');
  }
  grammar = loaded;
});

/** Each token of `text` (blanks left out) with its innermost scope, line by line. */
function tokens(text: string): [string, string][] {
  const found: [string, string][] = [];
  let state = textmate.INITIAL;
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const value = line.slice(token.startIndex, token.endIndex);
      if (value.trim()) {
        found.push([value.trim(), token.scopes[token.scopes.length - 1]]);
      }
    }
    state = result.ruleStack;
  }
  return found;
}

describe('the pbtxt grammar', () => {
  it('tells field names, enum values, strings, numbers and brackets apart', () => {
    expect(tokens('input [ { name: "IN" data_type: TYPE_FP32 dims: [ -1, 3 ] } ]')).toEqual([
      ['input', 'variable.other.property.pbtxt'],
      ['[', 'punctuation.section.brackets.begin.pbtxt'],
      ['{', 'punctuation.section.block.begin.pbtxt'],
      ['name', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['"', 'punctuation.definition.string.begin.pbtxt'],
      ['IN', 'string.quoted.double.pbtxt'],
      ['"', 'punctuation.definition.string.end.pbtxt'],
      ['data_type', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['TYPE_FP32', 'variable.other.enummember.pbtxt'],
      ['dims', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['[', 'punctuation.section.brackets.begin.pbtxt'],
      ['-1', 'constant.numeric.integer.pbtxt'],
      [',', 'punctuation.separator.pbtxt'],
      ['3', 'constant.numeric.integer.pbtxt'],
      [']', 'punctuation.section.brackets.end.pbtxt'],
      ['}', 'punctuation.section.block.end.pbtxt'],
      [']', 'punctuation.section.brackets.end.pbtxt'],
    ]);
  });

  it('reads a field name before `{`, `<` and `[` as well as before `:`', () => {
    expect(tokens('instance_group [')[0]).toEqual(['instance_group', 'variable.other.property.pbtxt']);
    expect(tokens('dynamic_batching { }')[0]).toEqual(['dynamic_batching', 'variable.other.property.pbtxt']);
    expect(tokens('sequence_batching<>')[0]).toEqual(['sequence_batching', 'variable.other.property.pbtxt']);
    expect(tokens('KIND_GPU : 1')[0]).toEqual(['KIND_GPU', 'variable.other.property.pbtxt']);
    expect(tokens('optimization <')[1]).toEqual(['<', 'punctuation.section.block.begin.angle.pbtxt']);
    expect(tokens('x: 1 >')[3]).toEqual(['>', 'punctuation.section.block.end.angle.pbtxt']);
  });

  it('colours comments, also after a value, but not a # in a string', () => {
    expect(tokens('# a comment: with "quotes"')).toEqual([
      ['#', 'punctuation.definition.comment.pbtxt'],
      ['a comment: with "quotes"', 'comment.line.number-sign.pbtxt'],
    ]);
    expect(tokens('name: "a#b"  # the name').slice(2)).toEqual([
      ['"', 'punctuation.definition.string.begin.pbtxt'],
      ['a#b', 'string.quoted.double.pbtxt'],
      ['"', 'punctuation.definition.string.end.pbtxt'],
      ['#', 'punctuation.definition.comment.pbtxt'],
      ['the name', 'comment.line.number-sign.pbtxt'],
    ]);
  });

  it('reads single and double quoted strings with their escapes', () => {
    expect(tokens(String.raw`value: 'it\'s' s: "tab\t\101\x41\u00e9\q"`).slice(2)).toEqual([
      ["'", 'punctuation.definition.string.begin.pbtxt'],
      ['it', 'string.quoted.single.pbtxt'],
      ["\\'", 'constant.character.escape.pbtxt'],
      ['s', 'string.quoted.single.pbtxt'],
      ["'", 'punctuation.definition.string.end.pbtxt'],
      ['s', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['"', 'punctuation.definition.string.begin.pbtxt'],
      ['tab', 'string.quoted.double.pbtxt'],
      ['\\t', 'constant.character.escape.pbtxt'],
      ['\\101', 'constant.character.escape.pbtxt'],
      ['\\x41', 'constant.character.escape.pbtxt'],
      ['\\u00e9', 'constant.character.escape.pbtxt'],
      ['\\q', 'invalid.illegal.unknown-escape.pbtxt'],
      ['"', 'punctuation.definition.string.end.pbtxt'],
    ]);
  });

  it('ends an unterminated string at the end of its line', () => {
    expect(tokens('name: "open\nmax_batch_size: 8').slice(-3)).toEqual([
      ['max_batch_size', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['8', 'constant.numeric.integer.pbtxt'],
    ]);
  });

  it('reads every form of number', () => {
    const numbers = tokens(
      'v: [ 0, 42, -7, 0x1F, 017, 08, 1.5, -.5, 2., 1e10, 6.02E+23, 1.5e-3f, 3f, inf, -inf, Infinity, nan, -NaN ]',
    ).filter(([, scope]) => scope.startsWith('constant.numeric'));
    expect(numbers).toEqual([
      ['0', 'constant.numeric.integer.pbtxt'],
      ['42', 'constant.numeric.integer.pbtxt'],
      ['-7', 'constant.numeric.integer.pbtxt'],
      ['0x1F', 'constant.numeric.hex.pbtxt'],
      ['017', 'constant.numeric.octal.pbtxt'],
      ['08', 'constant.numeric.integer.pbtxt'],
      ['1.5', 'constant.numeric.float.pbtxt'],
      ['-.5', 'constant.numeric.float.pbtxt'],
      ['2.', 'constant.numeric.float.pbtxt'],
      ['1e10', 'constant.numeric.float.pbtxt'],
      ['6.02E+23', 'constant.numeric.float.pbtxt'],
      ['1.5e-3f', 'constant.numeric.float.pbtxt'],
      ['3f', 'constant.numeric.float.pbtxt'],
      ['inf', 'constant.numeric.float.pbtxt'],
      ['-inf', 'constant.numeric.float.pbtxt'],
      ['Infinity', 'constant.numeric.float.pbtxt'],
      ['nan', 'constant.numeric.float.pbtxt'],
      ['-NaN', 'constant.numeric.float.pbtxt'],
    ]);
  });

  it('does not take digits inside names for numbers', () => {
    expect(tokens('data_type: TYPE_FP16 x: fp16_model')).toEqual([
      ['data_type', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['TYPE_FP16', 'variable.other.enummember.pbtxt'],
      ['x', 'variable.other.property.pbtxt'],
      [':', 'punctuation.separator.key-value.pbtxt'],
      ['fp16_model', 'variable.other.constant.pbtxt'],
    ]);
  });

  it('reads true and false as booleans', () => {
    expect(tokens('a: true b: false c: True d: False').filter(([, s]) => s.startsWith('constant.language'))).toEqual([
      ['true', 'constant.language.boolean.pbtxt'],
      ['false', 'constant.language.boolean.pbtxt'],
      ['True', 'constant.language.boolean.pbtxt'],
      ['False', 'constant.language.boolean.pbtxt'],
    ]);
  });

  it('reads an extension name in brackets as a field name, and a list as a list', () => {
    expect(tokens('[my.pkg.ext] { x: 1 }').slice(0, 4)).toEqual([
      ['[', 'punctuation.definition.extension.begin.pbtxt'],
      ['my.pkg.ext', 'variable.other.property.extension.pbtxt'],
      [']', 'punctuation.definition.extension.end.pbtxt'],
      ['{', 'punctuation.section.block.begin.pbtxt'],
    ]);
    expect(tokens('[type.googleapis.com/pkg.Msg]: <').slice(0, 3)).toEqual([
      ['[', 'punctuation.definition.extension.begin.pbtxt'],
      ['type.googleapis.com/pkg.Msg', 'variable.other.property.extension.pbtxt'],
      [']', 'punctuation.definition.extension.end.pbtxt'],
    ]);
    expect(tokens('kind: [ KIND_GPU ]').slice(2)).toEqual([
      ['[', 'punctuation.section.brackets.begin.pbtxt'],
      ['KIND_GPU', 'variable.other.enummember.pbtxt'],
      [']', 'punctuation.section.brackets.end.pbtxt'],
    ]);
  });
});
