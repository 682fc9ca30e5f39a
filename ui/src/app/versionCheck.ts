/** How often the app asks the bff which build it serves. */
export const VERSION_POLL_MS = 60_000;

/**
 * Tells whether the bff now serves another build than the one this page load first saw: the
 * new-version banner appears when the polled last-update value changes. The first answer is the
 * baseline; once a different one arrives the answer stays true until the page reloads. Empty
 * answers (a bff that reports nothing) never count as a change.
 */
export class VersionWatch {
  private baseline: string | undefined;
  private changed = false;

  /** Records one polled last_update; true when a new version is available. */
  observe(lastUpdate: string | null | undefined): boolean {
    if (!lastUpdate) return this.changed;
    if (this.baseline === undefined) this.baseline = lastUpdate;
    else if (lastUpdate !== this.baseline) this.changed = true;
    return this.changed;
  }
}
