/**
 * The words of the liveness challenge's steps as the API answers them (`steps[].instruction`).
 * Kept apart from challenge.ts (which needs node:crypto) so the hosted capture page can import
 * them and show each step in the person's language (web/capture/i18n/instructions.ts).
 */
export const TURN_LEFT = 'Turn your head slightly to your own left';
export const TURN_RIGHT = 'Turn your head slightly to your own right';
export const LOOK_STRAIGHT = 'Look straight at the camera';
export const SMILE = 'Look straight at the camera and smile';
export const BLINK = 'Look straight at the camera and blink slowly';
