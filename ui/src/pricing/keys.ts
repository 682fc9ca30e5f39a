/** Every pricing query lives under this key, so a change refreshes the whole screen. */
export const PRICING_KEY = ['pricing'] as const;
