/**
 * The shop's own words for search: a word or short form shoppers type that the shop does not
 * print, and the shop's word it means. One device setting (`searchSynonyms`), so phones search
 * with it offline and every process reads a change at once.
 */
import * as v from 'valibot';

export const SYNONYMS_MAX = 300;
export const SYNONYM_WORD_MAX = 30;

export const synonymMessages = {
  list: `Search synonyms are a list of at most ${SYNONYMS_MAX} pairs, each {word, means}.`,
  word: `Each search synonym's word and meaning is 1 to ${SYNONYM_WORD_MAX} characters.`,
  itself: 'A search synonym cannot mean itself.',
} as const;

const Word = v.pipe(
  v.string(synonymMessages.word),
  v.trim(),
  v.toLowerCase(),
  v.minLength(1, synonymMessages.word),
  v.maxLength(SYNONYM_WORD_MAX, synonymMessages.word),
);

export const SynonymSchema = v.pipe(
  v.object({ word: Word, means: Word }, synonymMessages.list),
  v.check((p) => p.word !== p.means, synonymMessages.itself),
);
export type Synonym = v.InferOutput<typeof SynonymSchema>;

export const SynonymsSchema = v.pipe(
  v.array(SynonymSchema, synonymMessages.list),
  v.maxLength(SYNONYMS_MAX, synonymMessages.list),
);

const pairs = (means: string, words: string[]): Synonym[] => words.map((word) => ({ word, means }));

/** The shop's list until the owner edits it: short forms, mithai, and Hindi and Punjabi words. */
export const DEFAULT_SYNONYMS: Synonym[] = [
  ...pairs('birthday', ['bday', "b'day", 'hbd', 'bdy', 'जन्मदिन', 'ਜਨਮਦਿਨ']),
  ...pairs('anniversary', ['anniv', 'anni', 'anny']),
  ...pairs('congratulations', ['congrats', 'congo', 'congratz']),
  ...pairs('sweets', ['mithai', 'मिठाई', 'ਮਿਠਾਈ']),
  ...pairs('cake', ['केक', 'ਕੇਕ']),
  ...pairs('flowers', ['फूल', 'ਫੁੱਲ']),
  ...pairs('rose', ['गुलाब', 'ਗੁਲਾਬ']),
  ...pairs('chocolate', ['चॉकलेट', 'ਚਾਕਲੇਟ']),
];
