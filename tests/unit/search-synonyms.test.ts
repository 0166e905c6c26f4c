import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SYNONYMS,
  SYNONYMS_MAX,
  SynonymsSchema,
  synonymMessages,
} from '../../domain/search-synonyms.js';

/** The shop's synonyms' rules: at most 300 pairs, words of 1 to 30 characters, none meaning itself. */
describe('search synonyms', () => {
  const first = (input: unknown) => v.safeParse(SynonymsSchema, input).issues?.[0]?.message;

  it('takes the default list, with Devanagari and Gurmukhi words', () => {
    expect(v.safeParse(SynonymsSchema, DEFAULT_SYNONYMS).success).toBe(true);
    expect(DEFAULT_SYNONYMS).toContainEqual({ word: 'केक', means: 'cake' });
    expect(DEFAULT_SYNONYMS).toContainEqual({ word: 'ਕੇਕ', means: 'cake' });
    expect(DEFAULT_SYNONYMS).toContainEqual({ word: 'bday', means: 'birthday' });
    expect(DEFAULT_SYNONYMS).toContainEqual({ word: 'mithai', means: 'sweets' });
  });

  it('trims and lower-cases the words', () => {
    expect(v.parse(SynonymsSchema, [{ word: ' BDAY ', means: 'Birthday' }])).toEqual([
      { word: 'bday', means: 'birthday' },
    ]);
  });

  it('refuses empty, too long, self-meaning and too many pairs', () => {
    expect(first([{ word: ' ', means: 'cake' }])).toBe(synonymMessages.word);
    expect(first([{ word: 'x'.repeat(31), means: 'cake' }])).toBe(synonymMessages.word);
    expect(first([{ word: 'Cake', means: 'cake ' }])).toBe(synonymMessages.itself);
    expect(first('bday=birthday')).toBe(synonymMessages.list);
    const many = Array.from({ length: SYNONYMS_MAX + 1 }, (_, i) => ({ word: `w${i}`, means: 'cake' }));
    expect(first(many)).toBe(synonymMessages.list);
    expect(first(many.slice(0, SYNONYMS_MAX))).toBeUndefined();
  });
});
