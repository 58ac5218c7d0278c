// Handlebars helpers a Waypoint .prompt may use (completion and hover in the language server).
/** Handlebars helpers a Waypoint .prompt may use: dotprompt's built-ins plus Waypoint's `ablation` block. */
export const PROMPT_HELPERS: Record<string, string> = {
  role: 'Starts a message with the given role: {{role "system"}} / {{role "user"}}.',
  history: 'Inserts the conversation so far (the messages the engine passes to this role).',
  section: 'Marks a named section of the rendered prompt.',
  media: 'Inserts a media part (unused by the tabletop roles).',
  json: 'Serialises a value as JSON.',
  ifEquals: 'Block shown when two values are equal.',
  unlessEquals: 'Block shown when two values differ.',
  ablation:
    'Block shown when the ablation id is on in the active variant; otherwise its {{else}} part (or nothing). Usage: {{#ablation "id" label="..."}}...{{else}}...{{/ablation}}',
  if: 'Handlebars conditional block.',
  unless: 'Handlebars negated conditional block.',
  each: 'Handlebars loop over a list.',
  with: 'Handlebars context block.',
};
