import { useQuery } from '@tanstack/react-query';
import type { User } from '../api';
import { authorizedAccountsQuery } from '../session/switching';
import { surveyWanted } from './rules';
import { useSurveyClosed } from './surveyState';

/**
 * The survey's state for `user`: `wanted` while the survey should be offered (undefined while the
 * authorized accounts are loading), and `settled` once it is out of the way (not wanted, closed,
 * saved, or turned off by its cookie), which the guided tour waits for.
 */
export function useSurvey(user: User): { wanted: boolean | undefined; settled: boolean } {
  const closed = useSurveyClosed();
  // Switched and impersonated sessions never see the survey, and may not list authorized accounts.
  const asks = surveyWanted(user, false) && !closed;
  const accounts = useQuery({ ...authorizedAccountsQuery, enabled: asks });
  if (!asks) return { wanted: false, settled: true };
  if (accounts.isPending) return { wanted: undefined, settled: false };
  // A failed list counts as none: the survey is then offered rather than lost.
  const wanted = (accounts.data?.length ?? 0) === 0;
  return { wanted, settled: !wanted };
}
