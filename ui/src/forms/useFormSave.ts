import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { formErrorsOf } from '../pages/auth/formErrors';

/** What a save answers: the bff's message and the saved item. */
export interface Saved<T> {
  message: string;
  data: T;
}

/**
 * The save of an edit form. `save.mutate()` sends it; on success the refusals are cleared, the bff's message
 * shows in a green toast, the queries under `invalidate` are fetched again and `then` runs with the saved item
 * (to open a new item's page, say); on a refusal `errors` holds its messages by field (`form` for the form).
 */
export function useFormSave<T>({ save, invalidate, then }: { save: () => Promise<Saved<T>>; invalidate: QueryKey; then?: (saved: T) => void }) {
  const client = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: async ({ message, data }) => {
      setErrors({});
      notifications.show({ color: 'green', message });
      await client.invalidateQueries({ queryKey: invalidate });
      then?.(data);
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return { save: mutation, errors, setErrors };
}
