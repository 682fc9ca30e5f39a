import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api';
import type { CampaignPreview, EmailCampaign, MergeField, Sender } from '../api/emailMarketing';
import { renderWithMantine } from '../test/render';
import { CampaignForm } from './CampaignForm';
import { previewDocument, sendersOfStore, sendPercent, UNSUBSCRIBE_PLACEHOLDER } from './campaignSchemas';

const sender: Sender = {
  id: 7,
  store_domain_id: 3,
  username: 'news',
  name: 'Shop',
  domain: 'mail.shop.test',
  email: 'news@mail.shop.test',
  created_at: '2026-01-01T00:00:00Z',
};

const draft: EmailCampaign = {
  id: 5,
  store_id: 1,
  store_name: 'Shop',
  sender_id: 7,
  sender_email: 'news@mail.shop.test',
  name: 'Spring',
  subject: 'Spring sale',
  preheader: '',
  body_html: '<p>Hi</p>',
  status: 'draft',
  scheduled_at: null,
  recipients: 0,
  sent: 0,
  failed: 0,
  error: '',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  started_at: null,
  finished_at: null,
};

const fields: MergeField[] = [
  { name: 'first_name', label: "The subscriber's first name", sample: 'Ada' },
  { name: 'unsubscribe_url', label: "The subscriber's own unsubscribe link", sample: '#unsubscribe' },
];

/** The server's preview as the bff answers it: samples filled, an unknown field refused on its field. */
function fakePreview({ subject, body_html }: CampaignPreview): Promise<CampaignPreview> {
  const unknown = /\{\{(?!first_name|unsubscribe_url)(\w+)\}\}/.exec(subject);
  if (unknown) {
    const message = `The subject uses {{${unknown[1]}}}, which is not a merge field.`;
    return Promise.reject(new ApiError(422, message, [{ field: 'subject', message }]));
  }
  const fill = (s: string) => s.replaceAll('{{first_name}}', 'Ada').replaceAll('{{unsubscribe_url}}', '#unsubscribe');
  return Promise.resolve({ subject: fill(subject), body_html: fill(body_html) });
}

const merge = { mergeFields: fields, preview: fakePreview };

describe('CampaignForm', () => {
  it('asks for the name, subject, sender and a body before calling the server', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithMantine(<CampaignForm senders={[sender]} {...merge} submitLabel="Save draft" onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/HTML body/));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(screen.getByText('The subject field is required.')).toBeInTheDocument();
    expect(screen.getByText('Choose a sender.')).toBeInTheDocument();
    expect(screen.getByText('The email body is required.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  }, 20_000);

  it('saves trimmed fields with the sender as a number, and shows a server refusal on its field', async () => {
    const onSubmit = vi.fn(() =>
      Promise.reject(new ApiError(422, "The sender's domain is not verified yet.", [{ field: 'sender_id', message: "The sender's domain is not verified yet." }])),
    );
    renderWithMantine(<CampaignForm initial={{ ...draft, name: ' Spring ' }} senders={[sender]} {...merge} submitLabel="Save" onSubmit={onSubmit} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Spring', subject: 'Spring sale', sender_id: 7, preheader: '', body_html: '<p>Hi</p>' });
    expect(await screen.findAllByText("The sender's domain is not verified yet.")).toHaveLength(2);
  });

  it('previews the body in a sandboxed frame that runs no script', async () => {
    renderWithMantine(<CampaignForm initial={draft} senders={[sender]} {...merge} submitLabel="Save" onSubmit={() => Promise.resolve()} />);
    const frame = screen.getByTitle('Campaign preview');
    expect(frame).toHaveAttribute('sandbox', '');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('<p>Hi</p>'));
  });

  it('lists the merge fields and previews subject and body with their samples', async () => {
    const initial = { ...draft, subject: 'Hi {{first_name}}', body_html: '<p>Dear {{first_name}}</p>' };
    renderWithMantine(<CampaignForm initial={initial} senders={[sender]} {...merge} submitLabel="Save" onSubmit={() => Promise.resolve()} />);
    expect(screen.getByTestId('merge-fields')).toHaveTextContent('{{first_name}}');
    expect(await screen.findByTestId('preview-subject')).toHaveTextContent('Subject: Hi Ada');
    expect(screen.getByTitle('Campaign preview').getAttribute('srcdoc')).toContain('<p>Dear Ada</p>');
  });

  it('says which merge field is unknown while typing, before any save', async () => {
    renderWithMantine(<CampaignForm initial={draft} senders={[sender]} {...merge} submitLabel="Save" onSubmit={() => Promise.resolve()} />);
    const subject = screen.getByLabelText(/Subject/);
    await userEvent.setup().type(subject, ' {{{{frist_name}}');
    expect(await screen.findByTestId('preview-refused', {}, { timeout: 3000 })).toHaveTextContent(
      'The subject uses {{frist_name}}, which is not a merge field.',
    );
  }, 20_000);

  it('checks the test address before sending a test', async () => {
    const onTest = vi.fn(() => Promise.resolve());
    renderWithMantine(
      <CampaignForm initial={draft} senders={[sender]} {...merge} submitLabel="Save" onSubmit={() => Promise.resolve()} onTest={onTest} />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Test address'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Enter a valid e-mail address for the test.')).toBeInTheDocument();
    expect(onTest).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Test address'));
    await user.type(screen.getByLabelText('Test address'), ' me@shop.test ');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect(onTest).toHaveBeenCalledWith('me@shop.test');
  }, 20_000);
});

describe('sendPercent', () => {
  it('counts sent and failed recipients, whole and capped', () => {
    expect(sendPercent({ status: 'sending', recipients: 200, sent: 60, failed: 7 })).toBe(33);
    expect(sendPercent({ status: 'sending', recipients: 0, sent: 0, failed: 0 })).toBe(0);
    expect(sendPercent({ status: 'sent', recipients: 0, sent: 0, failed: 0 })).toBe(100);
  });
});

describe('previewDocument', () => {
  it('points the unsubscribe link nowhere and hides the preheader', () => {
    const doc = previewDocument(`<a href="${UNSUBSCRIBE_PLACEHOLDER}">x</a>`, '20% <off>');
    expect(doc).toContain('href="#unsubscribe"');
    expect(doc).toContain('<div style="display:none">20% &lt;off&gt;</div>');
  });
});

describe('sendersOfStore', () => {
  it("keeps the senders on the store's domains", () => {
    const domains = [
      { id: 3, store_id: 1, domain: 'a', verified_at: null },
      { id: 4, store_id: 2, domain: 'b', verified_at: null },
    ];
    const other = { ...sender, id: 8, store_domain_id: 4 };
    expect(sendersOfStore([sender, other], domains, 2)).toEqual([other]);
    expect(sendersOfStore([sender, other], domains, null)).toEqual([]);
  });
});
