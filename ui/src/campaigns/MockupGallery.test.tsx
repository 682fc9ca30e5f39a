import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Mockup, Product } from '../api/campaigns';
import { json, ok } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { MockupGallery } from './MockupGallery';

const product: Product = {
  id: 7,
  template_id: 1,
  name: 'T-shirt',
  product_type: 'tshirt',
  print_spaces: '[]',
  full_printed: 0,
  options: '{"colors":[]}',
  default_option: '',
  mockup_type: 'tshirt',
  base_cost: 8.5,
  extra_print_cost: 3,
  personalized: false,
};
const front: Mockup = {
  id: 1,
  product_id: 7,
  print_space: 'front',
  mockup_template_id: 11,
  name: 'T-shirt, front',
  revision: 2,
  is_default_mockup: '1',
  file_url: 'p/41/design_11_7.png',
  url: '/api/files/p/41/design_11_7.png?v=abc',
  preview_url: '/api/files/p/41/design_11_7_preview.webp?v=abc',
  download_url: 'https://s3.example/bucket/p/41/design_11_7.png?response-content-disposition=attachment&X-Amz-Signature=x',
  file_name: 'Summer tee - T-shirt, front - mockup.png',
  status: 'done',
  error: '',
};
const back: Mockup = { ...front, id: 2, print_space: 'back', mockup_template_id: 12, name: 'T-shirt, back', is_default_mockup: '0', file_url: '', url: '', preview_url: '', download_url: '', file_name: '', status: 'pending' };

/** Answers the mockup calls from `list`, which a default choice changes as the bff would. */
function serve(list: () => Mockup[], choose: (id: number) => Response, retry: (id: number) => Response = () => json({}, 500)) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      const method = init.method ?? 'GET';
      const body: unknown = init.body ? JSON.parse(init.body as string) : undefined;
      calls.push({ method, path, body });
      if (method === 'GET' && path === '/api/seller/campaigns/41/mockups') return Promise.resolve(ok(list()));
      if (method === 'PUT' && path === '/api/seller/campaigns/41/default-mockup') return Promise.resolve(choose((body as { mockup_id: number }).mockup_id));
      const retried = /^\/api\/seller\/campaigns\/41\/mockups\/(\d+)\/retry$/.exec(path);
      if (method === 'POST' && retried) return Promise.resolve(retry(Number(retried[1])));
      return Promise.resolve(json({ success: false, message: `no route ${path}`, data: null, errors: [] }, 404));
    }),
  );
  return calls;
}

/** Shows the gallery; the returned function shows it again with the print files settled or not. */
function show(exportsSettled = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const gallery = (settled: boolean) => (
    <QueryClientProvider client={client}>
      <Notifications />
      <MockupGallery campaignId={41} products={[product]} revisions={{ 90: 2 }} exportsSettled={settled} />
    </QueryClientProvider>
  );
  const { rerender } = renderWithMantine(gallery(exportsSettled));
  return (settled: boolean) => rerender(gallery(settled));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('MockupGallery', () => {
  it('shows each mockup as it is made, polling while one is pending', async () => {
    let rendered = false;
    const calls = serve(
      () => (rendered ? [front, { ...back, status: 'done', url: '/api/files/p/41/design_12_7.png?v=def', file_url: 'p/41/design_12_7.png' }] : [front, back]),
      () => json({}, 500),
    );
    show();
    const group = await screen.findByTestId('mockup-product');
    expect(within(group).getByText('T-shirt')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'T-shirt, front mockup' })).toHaveAttribute('src', front.preview_url);
    expect(screen.getByRole('link', { name: 'Open the full T-shirt, front mockup' })).toHaveAttribute('href', front.url);
    const download = screen.getByRole('link', { name: 'Download the T-shirt, front mockup' });
    // The signed URL names the file (Content-Disposition), also from another origin, where the attribute is ignored.
    expect(download).toHaveAttribute('href', front.download_url);
    expect(download).toHaveAttribute('download');
    expect(download).toHaveAttribute('title', 'Download Summer tee - T-shirt, front - mockup.png');
    expect(screen.queryByRole('link', { name: 'Download the T-shirt, back mockup' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Making the T-shirt, back mockup')).toBeInTheDocument();
    rendered = true;
    expect(await screen.findByRole('img', { name: 'T-shirt, back mockup' }, { timeout: 3000 })).toHaveAttribute('src', '/api/files/p/41/design_12_7.png?v=def');
    expect(calls.every((c) => c.method === 'GET' && c.path === '/api/seller/campaigns/41/mockups')).toBe(true);
  }, 15_000);

  it('looks again when the print files settle, as their mockups are queued with them', async () => {
    let list: Mockup[] = [];
    const calls = serve(() => list, () => json({}, 500));
    const settle = show(false);
    expect(await screen.findByText("Save the campaign to see its products' mockups.")).toBeInTheDocument();
    const fetched = calls.length;
    list = [front, back];
    settle(true);
    expect(await screen.findByRole('img', { name: 'T-shirt, front mockup' })).toHaveAttribute('src', front.preview_url);
    expect(calls.length).toBeGreaterThan(fetched);
    list = [front, { ...back, status: 'done', url: '/b.png' }];
    expect(await screen.findByRole('img', { name: 'T-shirt, back mockup' }, { timeout: 3000 })).toHaveAttribute('src', '/b.png');
  }, 15_000);

  it('makes another mockup the default', async () => {
    const calls = serve(
      () => [front, { ...back, status: 'done', url: '/b.png' }],
      (id) => ok([{ ...front, is_default_mockup: '0' }, { ...back, status: 'done', url: '/b.png', is_default_mockup: id === 2 ? '1' : '0' }]),
    );
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Make T-shirt, back the default mockup' }));
    await waitFor(() => expect(screen.getAllByTestId('mockup').map((m) => m.dataset.default)).toEqual(['false', 'true']));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ mockup_id: 2 });
    expect(screen.getByRole('button', { name: 'Make T-shirt, front the default mockup' })).toBeInTheDocument();
  });

  it('shows a failed mockup with its message', async () => {
    serve(() => [{ ...front, status: 'failed', url: '', error: 'The print file of this design is missing. Please save the design again.' }], () => json({}, 500));
    show();
    expect(await screen.findByText('The print file of this design is missing. Please save the design again.')).toBeInTheDocument();
  });

  it('retries a failed mockup and shows it once made', async () => {
    const failed: Mockup = { ...front, status: 'failed', url: '', preview_url: '', error: 'The mockup template of this product is missing or damaged.' };
    let state: 'failed' | 'pending' | 'done' = 'failed';
    let polls = 0;
    const calls = serve(
      () => {
        if (state === 'pending' && ++polls > 1) state = 'done';
        return [state === 'failed' ? failed : state === 'pending' ? { ...failed, status: 'pending', error: '' } : front];
      },
      () => json({}, 500),
      () => {
        state = 'pending';
        return ok([{ ...failed, status: 'pending', error: '' }]);
      },
    );
    show();
    expect(await screen.findByTestId('mockup-error')).toHaveTextContent('The mockup template of this product is missing or damaged.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry the T-shirt, front mockup' }));
    expect(await screen.findByRole('img', { name: 'T-shirt, front mockup' }, { timeout: 5000 })).toHaveAttribute('src', front.preview_url);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/seller/campaigns/41/mockups/1/retry']);
  }, 15_000);

  it("shows the bff's refusal of a retry", async () => {
    const failed: Mockup = { ...front, status: 'failed', url: '', preview_url: '', error: 'This mockup cannot be made.' };
    serve(
      () => [failed],
      () => json({}, 500),
      () => json({ success: false, message: 'The design has changed since this mockup failed. Its new mockups follow its print file.', data: null, errors: [] }, 409),
    );
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Retry the T-shirt, front mockup' }));
    expect(await screen.findByText('The design has changed since this mockup failed. Its new mockups follow its print file.')).toBeInTheDocument();
  });

  it('asks for a save while the campaign has no mockups', async () => {
    serve(() => [], () => json({}, 500));
    show();
    expect(await screen.findByText("Save the campaign to see its products' mockups.")).toBeInTheDocument();
  });
});
