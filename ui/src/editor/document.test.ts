/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codePoints, sourceKindOf, validateDocument } from './document';

// The shared fixtures of schema/testdata/designs: the Go parser and the schema test read the same files.
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../schema/testdata/designs');
const readDir = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(path.join(fixtures, dir))
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name, readFileSync(path.join(fixtures, dir, name), 'utf8')]),
  );
const valid = readDir('valid');
const invalid = readDir('invalid');

const expectedRaw = invalid['expected.json'] ?? '{}';
const expected = JSON.parse(expectedRaw) as Record<string, { field: string; schema: boolean }>;

// Rules of the JSON text itself, which a parsed value no longer shows: JSON.parse refuses the first two
// (the editor never produces them) and keeps the last of duplicate keys.
const textLevel: Record<string, string> = {
  'not-json.json': 'not one JSON value: JSON.parse refuses it',
  'trailing-data.json': 'data after the document: JSON.parse refuses it',
  'duplicate-key.json': 'duplicate keys: JSON.parse keeps the last one',
};

describe('validateDocument on the shared fixtures', () => {
  const validFiles = Object.entries(valid);
  it('finds the fixtures', () => {
    expect(validFiles.length).toBeGreaterThan(10);
    expect(Object.keys(expected).length).toBeGreaterThan(40);
  });

  it.each(validFiles)('valid/%s has no problems', (_name, text) => {
    expect(validateDocument(JSON.parse(text))).toEqual([]);
  });

  const invalidFiles = Object.entries(invalid).filter(([name]) => name !== 'expected.json');

  it('has an expectation for every invalid fixture', () => {
    expect(invalidFiles.map(([name]) => name).sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [name, text] of invalidFiles) {
    const reason = textLevel[name];
    if (reason) {
      it(`invalid/${name} is a JSON-text rule (${reason})`, () => {
        if (name === 'duplicate-key.json') {
          expect(validateDocument(JSON.parse(text))).toEqual([]);
        } else {
          expect(() => {
            JSON.parse(text);
          }).toThrow();
        }
      });
      continue;
    }
    it(`invalid/${name} is refused on ${expected[name]?.field || 'the document'}`, () => {
      const problems = validateDocument(JSON.parse(text));
      expect(problems.map((p) => p.field)).toEqual([expected[name]?.field]);
      expect(problems[0]?.message).not.toBe('');
    });
  }
});

describe('sourceKindOf', () => {
  it.each([
    ['u/7/art.png', 'blob key'],
    ['.hidden/a', 'blob key'],
    ['..x/a', 'blob key'],
    ['https://cdn.example.com/a.png', 'url'],
    ['http:///a', 'invalid'],
    ['https://a b', 'invalid'],
    ['./art.png', 'relative path'],
    ['../assets/art.png', 'relative path'],
    ['./a//b', 'invalid'],
    ['/etc/passwd', 'invalid'],
    ['a/../b', 'invalid'],
    ['file:///etc/passwd', 'invalid'],
    ['', 'invalid'],
    ['a\u0001b', 'invalid'],
  ])('%s is a %s', (src, kind) => {
    expect(sourceKindOf(src)).toBe(kind);
  });
});

describe('validateDocument messages', () => {
  const doc = (objects: unknown[]) => ({
    version: 1,
    printSpace: { width: 100, height: 100, dpi: 300, minDpi: 150 },
    objects,
  });
  const text = (extra: Record<string, unknown>) => ({
    type: 'text', id: 't', text: 'Hi', fontSize: 10, x: 0, y: 0, width: 50, textWidth: 'fixed',
    displayStyle: 'color', fill: '#000', ...extra,
  });

  it('counts code points, not UTF-16 units, against maxLength', () => {
    expect(codePoints('😀😀')).toBe(2);
    expect(validateDocument(doc([text({ text: '😀😀', maxLength: 2 })]))).toEqual([]);
    expect(validateDocument(doc([text({ text: '😀😀😀', maxLength: 2 })]))).toEqual([
      { field: 'objects[0].text', message: '3 characters, longer than maxLength 2' },
    ]);
  });

  it('names the allowed values of an enumeration', () => {
    expect(validateDocument(doc([text({ textAlign: 'justify' })]))).toEqual([
      { field: 'objects[0].textAlign', message: 'unknown value "justify" (want left, center or right)' },
    ]);
  });

  it('lists every problem in document order', () => {
    const problems = validateDocument({ version: 2, printSpace: { width: 0, height: 1, dpi: 100, minDpi: 200 }, objects: [] });
    expect(problems.map((p) => p.field)).toEqual(['version', 'printSpace.width', 'printSpace.minDpi']);
  });
});
