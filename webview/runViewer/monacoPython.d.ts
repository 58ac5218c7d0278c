// monaco-editor ships no typings for its per-language Monarch definitions.
declare module 'monaco-editor/languages/definitions/python/python' {
  import type { languages } from 'monaco-editor/editor/editor.api';
  export const conf: languages.LanguageConfiguration;
  export const language: languages.IMonarchLanguage;
}
