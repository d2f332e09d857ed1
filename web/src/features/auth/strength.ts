// The strength estimate behind PasswordStrength: zxcvbn-ts with its common-password list and
// keyboard layouts. Imported only with import() from PasswordStrength, so it is a chunk of its own
// that only the sign-up, reset and change-password screens load.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

const zxcvbn = new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });

/** zxcvbn's feedback keys in plain English (no language package: it would add a large dictionary). */
const WARNINGS: Record<string, string> = {
  straightRow: 'Straight rows of keys on your keyboard are easy to guess.',
  keyPattern: 'Short keyboard patterns are easy to guess.',
  simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
  extendedRepeat: 'Repeated character patterns like "abcabcabc" are easy to guess.',
  sequences: 'Common character sequences like "abc" are easy to guess.',
  recentYears: 'Recent years are easy to guess.',
  dates: 'Dates are easy to guess.',
  topTen: 'This is a heavily used password.',
  topHundred: 'This is a frequently used password.',
  common: 'This is a commonly used password.',
  similarToCommon: 'This is similar to a commonly used password.',
  wordByItself: 'Single words are easy to guess.',
  namesByThemselves: 'Single names or surnames are easy to guess.',
  commonNames: 'Common names and surnames are easy to guess.',
  userInputs: 'It should not contain your name or email address.',
  pwned: 'This password appeared in a data breach.',
};
const SUGGESTIONS: Record<string, string> = {
  l33t: "Avoid predictable letter substitutions like '@' for 'a'.",
  reverseWords: 'Avoid reversed spellings of common words.',
  allUppercase: 'Capitalize some, but not all letters.',
  capitalization: 'Capitalize more than the first letter.',
  dates: 'Avoid dates and years that are associated with you.',
  recentYears: 'Avoid recent years.',
  associatedYears: 'Avoid years that are associated with you.',
  sequences: 'Avoid common character sequences.',
  repeated: 'Avoid repeated words and characters.',
  longerKeyboardPattern: 'Use longer keyboard patterns and change typing direction multiple times.',
  anotherWord: 'Add more words that are less common.',
  useWords: 'Use multiple words, but avoid common phrases.',
  noNeed: 'You can create strong passwords without using symbols, numbers, or uppercase letters.',
  pwned: 'If you use this password elsewhere, you should change it.',
};

export interface Strength {
  /** 0 (guessable in a few tries) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  feedback: string | null;
}

/** Long inputs are cut: the estimate grows with length and a 100-character password is strong anyway. */
export function estimate(password: string, userInputs: string[] = []): Strength {
  const inputs = userInputs.flatMap((s) => [s, ...s.toLowerCase().split(/[^\p{L}\p{N}]+/u)]).filter((s) => s.length >= 3);
  const result = zxcvbn.check(password.slice(0, 100), inputs);
  const warning = result.feedback.warning ? WARNINGS[result.feedback.warning] : undefined;
  const suggestion = result.feedback.suggestions.map((s) => SUGGESTIONS[s]).find(Boolean);
  return { score: result.score as Strength['score'], feedback: warning ?? suggestion ?? null };
}
