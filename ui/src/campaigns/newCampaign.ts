import { z } from 'zod';
import { CAMPAIGN_KINDS } from '../api/campaigns';

/** The longest campaign name the create step accepts. */
const NAME_MAX_LENGTH = 255;

/** The create step's rules (name, kind, at least one product template), worded like the bff's messages. */
export const newCampaignSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'The name field is required.' })
    .max(NAME_MAX_LENGTH, { error: `The name must not be longer than ${NAME_MAX_LENGTH} characters.` }),
  kind: z.enum(CAMPAIGN_KINDS, { error: 'Choose a campaign kind.' }),
  template_ids: z.array(z.number().int().positive()).min(1, { error: 'Pick at least one product.' }),
});

export type NewCampaignValues = z.input<typeof newCampaignSchema>;
