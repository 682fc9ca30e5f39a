import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, freshEmail, outboxLink } from './support/accounts';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  screenshot,
  signIn,
  suiteBrowser,
} from './support/stack';

const PASSWORD = 'a-long-enough-password';

describe('the seller team', () => {
  const browser = suiteBrowser();

  it('invites by e-mail, the invitee accepts, and the seller sets the permissions', async () => {
    // The invitee has a verified account of their own.
    const email = freshEmail('invitee');
    const adminToken = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    expect((await api('POST', '/auth/register', undefined, { name: 'Ivy Invitee', email, password: PASSWORD, password_confirmation: PASSWORD })).status).toBe(200);
    const verify = new URL(await outboxLink(adminToken, email, '/auth/verify-email'), BASE_URL);
    expect((await api('POST', '/auth/verify-email', undefined, { token: verify.searchParams.get('token') })).status).toBe(200);

    const seller = await openPage(browser());
    await signIn(seller.page, DEMO_SELLER);
    await seller.page.goto('/team');
    await seller.page.getByTestId('team-member').filter({ hasText: 'Toni Team' }).waitFor();
    const form = seller.page.getByRole('form', { name: 'Invite a team member' });
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByLabel('See orders and customers').check();
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await seller.page.getByText('The invitation has been sent.').waitFor();
    await screenshot(seller.page, 'team');

    const invitee = await openPage(browser());
    await signIn(invitee.page, email, PASSWORD);
    await invitee.page.goto('/team/invitations');
    const invitation = invitee.page.getByTestId('invitation').filter({ hasText: 'Sam Seller' });
    await invitation.getByRole('button', { name: 'Accept' }).click();
    await invitee.page.getByText('You have joined the team.', { exact: false }).waitFor();
    await invitee.context.close();

    await seller.page.reload();
    const row = seller.page.getByTestId('team-member').filter({ hasText: email });
    await row.getByText('See orders and customers').waitFor();
    await row.getByRole('button', { name: 'Permissions' }).click();
    const dialog = seller.page.getByRole('dialog');
    await dialog.getByLabel('See campaigns').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row.getByText('See orders and customers, See campaigns').waitFor();
    await seller.context.close();
  });
});
