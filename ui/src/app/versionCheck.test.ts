import { describe, expect, it } from 'vitest';
import { VERSION_POLL_MS, VersionWatch } from './versionCheck';

describe('new-version detection', () => {
  it('polls every 60 seconds', () => {
    expect(VERSION_POLL_MS).toBe(60_000);
  });

  it.each<[string, (string | null)[], boolean[]]>([
    ['the first answer is the baseline', ['2026-11-22T05:00:00Z'], [false]],
    ['the same build again is no news', ['b1', 'b1', 'b1'], [false, false, false]],
    ['another build is a new version', ['b1', 'b1', 'b2'], [false, false, true]],
    ['and stays one until the page reloads, even if the old build answers again', ['b1', 'b2', 'b1'], [false, true, true]],
    ['an empty or missing answer is never a change', ['b1', '', null, 'b1'], [false, false, false, false]],
    ['an empty first answer sets no baseline', ['', 'b1', 'b2'], [false, false, true]],
  ])('%s', (_name, answers, want) => {
    const watch = new VersionWatch();
    expect(answers.map((answer) => watch.observe(answer))).toEqual(want);
  });
});
