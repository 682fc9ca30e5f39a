import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api';
import { renderWithMantine } from '../test/render';
import { KlaviyoForm } from './KlaviyoForm';
import { SenderForm } from './SenderForm';
import { MAILBOX, syncPercent, USERNAME_MESSAGE } from './schemas';

describe('KlaviyoForm', () => {
  it('requires the key and the list before calling the server', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithMantine(<KlaviyoForm initial={{ private_key: '', list_id: '' }} onSubmit={onSubmit} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The private key field is required.')).toBeInTheDocument();
    expect(screen.getByText('The list id field is required.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows Klaviyo's refusal on the field and under the form", async () => {
    const refusal = 'Klaviyo refused the connection: Missing or invalid private key.';
    const onSubmit = vi.fn(() => Promise.reject(new ApiError(422, refusal, [{ field: 'private_key', message: refusal }])));
    renderWithMantine(<KlaviyoForm initial={{ private_key: '', list_id: '' }} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Private API key/), ' pk_wrong ');
    await user.type(screen.getByLabelText(/List ID/), 'L1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ private_key: 'pk_wrong', list_id: 'L1' });
    expect(await screen.findAllByText(refusal)).toHaveLength(2);
  });
});

describe('SenderForm', () => {
  const domains = [{ id: 3, store_id: 1, domain: 'mail.shop.test', verified_at: null }];

  it('checks the domain, mailbox name and name on create', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithMantine(<SenderForm domains={domains} submitLabel="Create sender" onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'hel lo');
    await user.click(screen.getByRole('button', { name: 'Create sender' }));
    expect(await screen.findByText('The store domain field is required.')).toBeInTheDocument();
    expect(screen.getByText(USERNAME_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('The name field is required.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('renames with the trimmed username and name only', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithMantine(
      <SenderForm domain="mail.shop.test" initial={{ username: 'hello', name: 'Shop' }} submitLabel="Save" onSubmit={onSubmit} />,
    );
    const user = userEvent.setup();
    expect(screen.getByText('Sends as hello@mail.shop.test')).toBeInTheDocument();
    const username = screen.getByLabelText(/Username/);
    await user.clear(username);
    await user.type(username, ' news ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ username: 'news', name: 'Shop' });
  });

  it('shows a server refusal such as a taken address on its field', async () => {
    const taken = 'This address is already a sender.';
    const onSubmit = vi.fn(() => Promise.reject(new ApiError(422, taken, [{ field: 'username', message: taken }])));
    renderWithMantine(<SenderForm domain="d" initial={{ username: 'a', name: 'b' }} submitLabel="Save" onSubmit={onSubmit} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(taken)).toHaveLength(2);
  });
});

describe('mailbox rule', () => {
  it.each([
    ['hello', true],
    ['first.last+news', true],
    ['a_b-c', true],
    ['.lead', false],
    ['trail.', false],
    ['a..b', false],
    ['a@b', false],
    ['', false],
  ])('%s → %s', (name, ok) => {
    expect(MAILBOX.test(name)).toBe(ok);
  });
});

describe('syncPercent', () => {
  it('is whole, capped and full when done', () => {
    expect(syncPercent({ done: 333, total: 1000, status: 'running' })).toBe(33);
    expect(syncPercent({ done: 0, total: 0, status: 'queued' })).toBe(0);
    expect(syncPercent({ done: 0, total: 0, status: 'done' })).toBe(100);
    expect(syncPercent({ done: 20, total: 10, status: 'running' })).toBe(100);
  });
});
