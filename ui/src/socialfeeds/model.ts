import { FEED_FORMATS, type SocialFeed } from '../api/socialFeeds';

/** The query key every feed query starts with, so one invalidation refreshes them all. */
export const FEEDS_KEY = ['social-feeds'];

/** How each state reads, and its badge's colour. */
export const FEED_STATE: Readonly<Record<SocialFeed['state'], { label: string; color: string }>> = {
  building: { label: 'Building', color: 'yellow' },
  ready: { label: 'Ready', color: 'green' },
  failed: { label: 'Build failed', color: 'red' },
};

/** A format's name in words, "Google Merchant (XML)". */
export function formatLabel(format: SocialFeed['format']): string {
  const f = FEED_FORMATS.find((x) => x.value === format);
  return f ? `${f.label} (${f.file})` : format;
}

/** The file a download saves, named after the feed. */
export function feedFileName(f: Pick<SocialFeed, 'name' | 'format' | 'id'>): string {
  const stem = f.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || `feed-${f.id}`;
  return `${stem}.${f.format === 'facebook' ? 'csv' : 'xml'}`;
}

/** "12 kB", "3.4 MB": a file's size in words. */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
