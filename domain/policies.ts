/**
 * The shop's policy pages: Shipping and delivery, Cancellation and refunds, Privacy, and Terms.
 * Each has a stable address (linked from the footer). Its text is the owner's when written on
 * Settings → Policies (`policies` in `domain/settings.ts`: only the written ones are kept), else a
 * default made from the shop's own settings, so a page never promises what the shop does not do.
 */
import * as v from 'valibot';

export const POLICIES = {
  shipping: { title: 'Shipping and delivery', path: '/policies/shipping' },
  cancellation: { title: 'Cancellation and refunds', path: '/policies/cancellation-and-refunds' },
  privacy: { title: 'Privacy', path: '/privacy' },
  terms: { title: 'Terms of use', path: '/policies/terms' },
} as const;
export type PolicyKey = keyof typeof POLICIES;
export const POLICY_KEYS = Object.keys(POLICIES) as PolicyKey[];

export const policyMessages = {
  text: 'A policy is at most 20,000 characters.',
} as const;

const PolicyText = v.pipe(v.string(policyMessages.text), v.maxLength(20_000, policyMessages.text));

/** The owner's texts, by policy; a policy absent here reads its default. */
export const PoliciesSchema = v.object({
  shipping: v.optional(PolicyText),
  cancellation: v.optional(PolicyText),
  privacy: v.optional(PolicyText),
  terms: v.optional(PolicyText),
});
export type Policies = v.InferOutput<typeof PoliciesSchema>;

/** The policy a page address shows, if any. */
export function policyAt(path: string): PolicyKey | null {
  const at = path.replace(/\/+$/, '').toLowerCase();
  return POLICY_KEYS.find((k) => POLICIES[k].path === at) ?? null;
}
