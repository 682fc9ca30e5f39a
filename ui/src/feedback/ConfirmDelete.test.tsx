import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDelete } from './ConfirmDelete';
import { renderWithMantine } from '../test/render';

function show(remove: (id: number) => Promise<string>, onClose: () => void) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  renderWithMantine(
    <QueryClientProvider client={client}>
      <Notifications />
      <ConfirmDelete item={{ id: 12, name: 'Summer drop' }} onClose={onClose} remove={remove} queryKey={['things']} />
    </QueryClientProvider>,
  );
  return invalidate;
}

describe('ConfirmDelete', () => {
  it('deletes the row it names, says so, closes and reads the list afresh', async () => {
    const remove = vi.fn(() => Promise.resolve('Store deleted.'));
    const onClose = vi.fn();
    const invalidate = show(remove, onClose);
    expect(screen.getByText("Summer drop: You won't be able to revert this!")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete it!' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(remove).toHaveBeenCalledWith(12, expect.anything());
    expect(await screen.findByText('Store deleted.')).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['things'] });
  });

  it('keeps the dialog open and shows why when the delete is refused', async () => {
    const onClose = vi.fn();
    show(() => Promise.reject(new Error('The store has orders.')), onClose);
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('Error: The store has orders.')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
