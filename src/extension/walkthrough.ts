// Names shared by activate.ts and commands/example.ts, kept import-free so activation loads nothing for them.
/** globalState key: the example folder whose window should reopen the getting-started walkthrough. */
export const RESUME_WALKTHROUGH_KEY = 'waypoint.walkthrough.resumeIn';
/** The walkthrough's id in package.json `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'gettingStarted';
