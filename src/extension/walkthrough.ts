// Names shared by activate.ts and commands/example.ts, kept import-free so activation loads nothing for them.
/** globalState key: the example folder whose window should reopen the getting-started walkthrough. */
export const RESUME_WALKTHROUGH_KEY = 'waypoint.walkthrough.resumeIn';
/** The walkthrough's id in package.json `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'gettingStarted';
/**
 * The commands that complete the walkthrough's steps. A step lists `onCommand:waypoint.<name>`, which the workbench
 * only sees for commands it runs itself (the step's button, the palette); a CodeLens or tree item with arguments
 * reaches the extension as a delegated command, so each of these also sets the context key below, which the step
 * lists as `onContext:`.
 */
export const WALKTHROUGH_COMMANDS: ReadonlySet<string> = new Set(['openExampleWorkspace', 'runLiveTest', 'toggleAblation', 'compareOnOff']);
export const walkthroughContextKey = (command: string): string => `waypoint.walkthrough.ran.${command}`;
