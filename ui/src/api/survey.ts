import { z } from 'zod';
import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import { checked } from './schema';

/** The sale-volume answers, in the order the survey lists them (bff/survey.SaleVolumes). */
export const SALE_VOLUMES = ['50 - 100', '150 - 300', '300 - 600', '1000 - 2000', '2000+'] as const;

/** What the survey sends; facebook and phone are asked only when missing. */
export interface SurveyAnswers {
  sale_volume: string;
  facebook: string;
  phone: string;
}

const resultSchema = z.object({ tier: z.number().int(), upgraded: z.boolean() });

/** A saved survey: the bff's message ("Your information has been saved."), the tier and whether it rose. */
export interface SurveyResult extends z.infer<typeof resultSchema> {
  message: string;
}

/** POST /api/seller/survey; a refusal throws an ApiError carrying the field errors. */
export async function submitSurvey(api: ApiClient, answers: SurveyAnswers): Promise<SurveyResult> {
  const answer = await api.send<Envelope<unknown>>('POST', '/seller/survey', { body: answers });
  return { ...checked(resultSchema, 'POST /seller/survey', answer.data), message: answer.message };
}
