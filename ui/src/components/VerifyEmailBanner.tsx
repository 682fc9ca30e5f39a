import { Alert, Anchor } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The top banner for non-designers with an unverified e-mail. */
export function VerifyEmailBanner() {
  return (
    <Alert color="yellow" variant="light" icon={<IconMailExclamation size={18} />} mb="md" data-testid="verify-email-banner">
      <Anchor component={Link} to="/auth/verify-email" c="inherit" fw={500}>
        You need to verify your email, click to verify!
      </Anchor>
    </Alert>
  );
}
