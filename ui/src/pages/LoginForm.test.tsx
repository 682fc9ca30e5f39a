import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api';
import { renderWithMantine } from '../test/render';
import { LoginForm } from './LoginForm';

function setup(onSubmit = vi.fn(() => Promise.resolve())) {
  renderWithMantine(<LoginForm onSubmit={onSubmit} />);
  return {
    onSubmit,
    user: userEvent.setup(),
    email: screen.getByLabelText(/^Email/),
    password: screen.getByLabelText(/^Password/),
    submit: screen.getByRole('button', { name: 'Sign in' }),
  };
}

describe('LoginForm', () => {
  it('requires both fields before calling the server', async () => {
    const { user, submit, onSubmit } = setup();

    await user.click(submit);

    expect(await screen.findByText('The email field is required.')).toBeInTheDocument();
    expect(screen.getByText('The password field is required.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('rejects an address that is not an email', async () => {
    const { user, email, password, submit, onSubmit } = setup();

    await user.type(email, 'seller-at-example.com');
    await user.type(password, 'pressroom-demo');
    await user.click(submit);

    expect(await screen.findByText('The email must be a valid email address.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits trimmed credentials', async () => {
    const { user, email, password, submit, onSubmit } = setup();

    await user.type(email, '  seller@example.com ');
    await user.type(password, 'pressroom-demo');
    await user.click(submit);

    expect(onSubmit).toHaveBeenCalledWith({ email: 'seller@example.com', password: 'pressroom-demo' });
  });

  it('shows the server message under the form', async () => {
    const message = 'These credentials do not match our records.';
    const { user, email, password, submit } = setup(
      vi.fn(() => Promise.reject(new ApiError(401, message, [{ field: 'email', message }]))),
    );

    await user.type(email, 'seller@example.com');
    await user.type(password, 'wrong');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getAllByText(message)).toHaveLength(1);
  });

  it('puts 422 field errors on their fields', async () => {
    const { user, email, password, submit } = setup(
      vi.fn(() =>
        Promise.reject(
          new ApiError(422, 'The selected email is invalid.', [
            { field: 'email', message: 'The selected email is invalid.' },
          ]),
        ),
      ),
    );

    await user.type(email, 'nobody@example.com');
    await user.type(password, 'pressroom-demo');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('The selected email is invalid.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });
});
