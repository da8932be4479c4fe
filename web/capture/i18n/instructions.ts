import { BLINK, LOOK_STRAIGHT, SMILE, TURN_LEFT, TURN_RIGHT } from '../../../src/identity/capture/instructions.js';
import { phrase, type Phrase } from './catalogue.js';

/** The catalogue's message for each instruction the challenge gives (src/identity/capture/instructions.ts). */
const INSTRUCTIONS: ReadonlyMap<string, Phrase> = new Map([
  [TURN_LEFT, phrase('challenge.turn_left')],
  [TURN_RIGHT, phrase('challenge.turn_right')],
  [LOOK_STRAIGHT, phrase('challenge.look_straight')],
  [SMILE, phrase('challenge.smile')],
  [BLINK, phrase('challenge.blink')],
]);

/**
 * A step's instruction in the person's language: the catalogue's message for words the challenge
 * gives, else the API's own words (a server newer than this page), rather than nothing.
 */
export function instructionPhrase(instruction: string): Phrase | string {
  return INSTRUCTIONS.get(instruction) ?? instruction;
}
