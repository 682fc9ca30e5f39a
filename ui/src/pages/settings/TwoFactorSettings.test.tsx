import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tfaDisable, tfaSetup } from '../../api/account';
import { meQuery } from '../../session/queries';
import { renderWithMantine } from '../../test/render';
import { makeUser } from '../../test/users';
import { TwoFactorSettings } from './TwoFactorSettings';

vi.mock('../../api/account', () => ({ tfaSetup: vi.fn(), tfaEnable: vi.fn(), tfaDisable: vi.fn() }));

function renderFor(tfaEnable: boolean) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(meQuery.queryKey, makeUser({ tfa_enable: tfaEnable }));
  renderWithMantine(
    <QueryClientProvider client={queryClient}>
      <TwoFactorSettings />
    </QueryClientProvider>,
  );
}

describe('TwoFactorSettings', () => {
  beforeEach(() => vi.clearAllMocks());

  it('asks for the current password before starting the setup', async () => {
    vi.mocked(tfaSetup).mockResolvedValue({ secret: 'ABC', otpauth_url: 'otpauth://totp/x', qr_code: 'data:image/png;base64,' });
    renderFor(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    expect(await screen.findByText('Enter your current password.')).toBeInTheDocument();
    expect(tfaSetup).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Current password'), 'my-password');
    await user.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    expect(tfaSetup).toHaveBeenCalledWith(expect.anything(), 'my-password');
    expect(await screen.findByTestId('tfa-secret')).toHaveTextContent('ABC');
  });

  it('turns two-factor off with the current password and a code', async () => {
    vi.mocked(tfaDisable).mockResolvedValue('Two-factor authentication is disabled.');
    renderFor(true);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByText('Enter your current password.')).toBeInTheDocument();
    expect(tfaDisable).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Current password'), 'my-password');
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(tfaDisable).toHaveBeenCalledWith(expect.anything(), '123456', 'my-password');
  });
});
