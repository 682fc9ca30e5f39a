import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithMantine } from '../test/render';
import { ArtworkDropZone } from './ArtworkDropZone';

const file = (name: string, type: string, body = 'x') => new File([body], name, { type });

function drop(files: File[]) {
  const zone = screen.getByTestId('artwork-drop-zone');
  const dataTransfer = { files, types: ['Files'], dropEffect: 'none' };
  fireEvent.dragOver(zone, { dataTransfer });
  expect(zone).toHaveAttribute('data-over', 'true');
  fireEvent.drop(zone, { dataTransfer });
  expect(zone).toHaveAttribute('data-over', 'false');
}

describe('ArtworkDropZone', () => {
  it('sorts a drop into artworks, URL lists and refused files', async () => {
    const onArtworks = vi.fn();
    const onUrlList = vi.fn();
    const onRefused = vi.fn();
    renderWithMantine(<ArtworkDropZone onArtworks={onArtworks} onUrlList={onUrlList} onRefused={onRefused} />);
    const art = [file('a.png', 'image/png'), file('b.jpg', 'image/jpeg'), file('c.webp', 'image/webp')];
    drop([art[0]!, file('urls.csv', 'text/csv', 'url\nu/1/artworks/x.png\n'), art[1]!, file('notes.pdf', 'application/pdf'), art[2]!]);
    expect(onArtworks).toHaveBeenCalledExactlyOnceWith(art);
    expect(onRefused).toHaveBeenCalledExactlyOnceWith(['notes.pdf']);
    await waitFor(() => expect(onUrlList).toHaveBeenCalledExactlyOnceWith('url\nu/1/artworks/x.png\n'));
  });

  it('ignores a drag that carries no files', () => {
    renderWithMantine(<ArtworkDropZone onArtworks={vi.fn()} onUrlList={vi.fn()} onRefused={vi.fn()} />);
    const zone = screen.getByTestId('artwork-drop-zone');
    fireEvent.dragOver(zone, { dataTransfer: { files: [], types: ['text/plain'] } });
    expect(zone).toHaveAttribute('data-over', 'false');
  });
});
