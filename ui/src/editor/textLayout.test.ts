import type { TextObject } from './document';
import { alignOffset, convertText, layoutText, wrapLine } from './textLayout';

// A monospaced measure: every character is half an em wide, so expected layouts are easy to state.
const mono = (line: string) => [...line].length * 0.5;

const text = (patch: Partial<TextObject>): TextObject => ({
  type: 'text',
  id: 't',
  text: 'abcd',
  fontSize: 100,
  x: 0,
  y: 0,
  width: 400,
  textWidth: 'limited',
  displayStyle: 'color',
  fill: '#000',
  ...patch,
});

describe('convertText', () => {
  it('maps case as the renderer does', () => {
    expect(convertText('hello World ß', 'uppercase')).toBe('HELLO WORLD SS');
    expect(convertText('HELLO World', 'lowercase')).toBe('hello world');
    expect(convertText('hello big  wORLD\nnext', 'capitalize')).toBe('Hello Big  WORLD\nNext');
    expect(convertText('as typed', '')).toBe('as typed');
    expect(convertText('as typed', undefined)).toBe('as typed');
  });
});

describe('wrapLine', () => {
  it('breaks at spaces and hyphens, trimming the spaces at the break', () => {
    expect(wrapLine(mono, 'best dad in town', 4)).toEqual(['best dad', 'in town']);
    expect(wrapLine(mono, 'well-known', 3)).toEqual(['well-', 'known']);
  });

  it('breaks a word longer than the line between characters', () => {
    expect(wrapLine(mono, 'supercalifragil', 3)).toEqual(['superc', 'alifra', 'gil']);
  });

  it('keeps an empty paragraph as an empty line', () => {
    expect(wrapLine(mono, '', 3)).toEqual(['']);
  });
});

describe('layoutText', () => {
  it('fixed: wraps to the width and keeps the font size', () => {
    const lay = layoutText(text({ textWidth: 'fixed', text: 'best dad in town' }), mono);
    expect(lay).toMatchObject({ lines: ['best dad', 'in town'], size: 100, top: 0, boxW: 400, boxH: 200, shrunk: false });
  });

  it('limited: shrinks a line wider than the box and centres it in the nominal box', () => {
    const lay = layoutText(text({ text: 'abcdefghijklmnop' }), mono); // 8 ems at 100 = 800 > 400
    expect(lay.size).toBe(50);
    expect(lay.shrunk).toBe(true);
    expect(lay.top).toBe(25);
    expect(lay.boxH).toBe(100);
    const short = layoutText(text({ text: 'ab' }), mono);
    expect(short).toMatchObject({ size: 100, top: 0, shrunk: false });
  });

  it('flexible: the box grows with the text, anchored by the alignment', () => {
    const t = text({ textWidth: 'flexible', text: 'abcdefghijkl', x: 100, width: 400 }); // 600 wide
    expect(layoutText({ ...t, textAlign: 'left' }, mono)).toMatchObject({ boxX: 0, boxW: 600, size: 100 });
    expect(layoutText({ ...t, textAlign: 'center' }, mono)).toMatchObject({ boxX: -100, boxW: 600 });
    expect(layoutText({ ...t, textAlign: 'right' }, mono)).toMatchObject({ boxX: -200, boxW: 600 });
  });

  it('lays out one line per paragraph and converts before measuring', () => {
    const lay = layoutText(text({ text: 'ab\ncd', convertText: 'uppercase' }), mono);
    expect(lay.lines).toEqual(['AB', 'CD']);
    expect(lay.boxH).toBe(200);
  });
});

describe('alignOffset', () => {
  it('places a line in the box', () => {
    expect(alignOffset('left', 400, 100)).toBe(0);
    expect(alignOffset('center', 400, 100)).toBe(150);
    expect(alignOffset('right', 400, 100)).toBe(300);
    expect(alignOffset(undefined, 400, 100)).toBe(0);
  });
});
