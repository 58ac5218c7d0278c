// Theme colours for pages outside VS Code (the HTML report, the browser tests). Inside VS Code the editor defines
// every `--vscode-*` variable; outside, each one the run viewer or its @vscode-elements components read must be
// defined here for every theme, or the component falls back to its built-in dark value (a near-black collapsible
// body under dark grey text in the light theme). test/unit/core/trace/reportThemes.test.ts checks that the lists
// are complete; test/webview/themes.test.ts checks the text contrast of every panel (WCAG AA, 4.5:1).
// Values follow VS Code's Dark Modern, Light Modern and Dark High Contrast themes, darkened or lightened where a
// default would fall under 4.5:1 as text on the page.

export const REPORT_THEMES = ['dark', 'light', 'high-contrast'] as const;
export type ReportTheme = (typeof REPORT_THEMES)[number];

const COMMON = { 'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'font-weight': 'normal', 'editor-font-family': 'ui-monospace, monospace', 'editor-font-size': '12px' };

export const THEME_VARIABLES: Record<ReportTheme, Record<string, string>> = {
  dark: {
    ...COMMON,
    foreground: '#cccccc', descriptionForeground: '#9d9d9d', errorForeground: '#f48771', 'icon-foreground': '#cccccc', focusBorder: '#0078d4',
    contrastBorder: 'transparent', 'widget-shadow': 'rgba(0, 0, 0, 0.36)', 'scrollbar-shadow': '#000000', 'sash-hoverBorder': '#0078d4',
    'toolbar-hoverOutline': 'transparent',
    'editor-background': '#1f1f1f', 'editor-selectionBackground': 'rgba(38, 79, 120, 0.6)', 'editor-hoverHighlightBackground': 'rgba(38, 79, 120, 0.3)',
    'editorWidget-border': '#454545', 'editorWarning-foreground': '#cca700', 'textCodeBlock-background': '#2b2b2b',
    'textLink-foreground': '#4daafc', 'textLink-activeForeground': '#4daafc',
    'panel-background': '#181818', 'panel-border': '#2b2b2b', 'panelTitle-activeForeground': '#e7e7e7', 'panelTitle-inactiveForeground': '#9d9d9d',
    'panelTitle-activeBorder': '#0078d4', 'sideBar-background': '#181818', 'sideBarSectionHeader-background': '#181818', 'sideBarTitle-foreground': '#cccccc',
    'list-activeSelectionBackground': '#04395e', 'list-activeSelectionForeground': '#ffffff', 'list-hoverBackground': '#2a2d2e', 'list-hoverForeground': '#cccccc',
    'list-focusHighlightForeground': '#2aaaff', 'list-highlightForeground': '#2aaaff', 'list-focusOutline': '#0078d4',
    'badge-background': '#616161', 'badge-foreground': '#f8f8f8',
    'button-background': '#0078d4', 'button-foreground': '#ffffff', 'button-hoverBackground': '#026ec1', 'button-border': 'transparent', 'button-separator': 'rgba(255, 255, 255, 0.4)',
    'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'button-secondaryHoverBackground': '#3c3c3c',
    'checkbox-background': '#313131', 'checkbox-border': '#3c3c3c', 'checkbox-foreground': '#cccccc',
    'settings-checkboxBackground': '#313131', 'settings-checkboxBorder': '#3c3c3c', 'settings-checkboxForeground': '#cccccc',
    'settings-dropdownBackground': '#313131', 'settings-dropdownBorder': '#3c3c3c', 'settings-dropdownForeground': '#cccccc', 'settings-dropdownListBorder': '#454545',
    'settings-headerBorder': '#2b2b2b',
    'inputValidation-warningBackground': '#352a05', 'inputValidation-warningBorder': '#b89500', 'inputValidation-errorBackground': '#5a1d1d', 'inputValidation-errorBorder': '#be1100',
    'testing-iconPassed': '#73c991', 'testing-iconFailed': '#f14c4c',
    'charts-red': '#f14c4c', 'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-yellow': '#cca700', 'charts-orange': '#d18616', 'charts-purple': '#b180d7',
  },
  light: {
    ...COMMON,
    foreground: '#3b3b3b', descriptionForeground: '#616161', errorForeground: '#a1260d', 'icon-foreground': '#3b3b3b', focusBorder: '#005fb8',
    contrastBorder: 'transparent', 'widget-shadow': 'rgba(0, 0, 0, 0.16)', 'scrollbar-shadow': '#dddddd', 'sash-hoverBorder': '#005fb8',
    'toolbar-hoverOutline': 'transparent',
    'editor-background': '#ffffff', 'editor-selectionBackground': 'rgba(173, 214, 255, 0.7)', 'editor-hoverHighlightBackground': 'rgba(173, 214, 255, 0.35)',
    'editorWidget-border': '#c8c8c8', 'editorWarning-foreground': '#895503', 'textCodeBlock-background': '#f0f0f0',
    'textLink-foreground': '#005fb8', 'textLink-activeForeground': '#005fb8',
    'panel-background': '#f8f8f8', 'panel-border': '#e5e5e5', 'panelTitle-activeForeground': '#3b3b3b', 'panelTitle-inactiveForeground': '#616161',
    'panelTitle-activeBorder': '#005fb8', 'sideBar-background': '#f8f8f8', 'sideBarSectionHeader-background': '#f0f0f0', 'sideBarTitle-foreground': '#3b3b3b',
    'list-activeSelectionBackground': '#e4e6f1', 'list-activeSelectionForeground': '#000000', 'list-hoverBackground': '#f2f2f2', 'list-hoverForeground': '#000000',
    'list-focusHighlightForeground': '#0066bf', 'list-highlightForeground': '#0066bf', 'list-focusOutline': '#005fb8',
    'badge-background': '#cccccc', 'badge-foreground': '#3b3b3b',
    'button-background': '#005fb8', 'button-foreground': '#ffffff', 'button-hoverBackground': '#0258a8', 'button-border': 'transparent', 'button-separator': 'rgba(255, 255, 255, 0.4)',
    'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b', 'button-secondaryHoverBackground': '#cccccc',
    'checkbox-background': '#f8f8f8', 'checkbox-border': '#cecece', 'checkbox-foreground': '#3b3b3b',
    'settings-checkboxBackground': '#f8f8f8', 'settings-checkboxBorder': '#cecece', 'settings-checkboxForeground': '#3b3b3b',
    'settings-dropdownBackground': '#ffffff', 'settings-dropdownBorder': '#cecece', 'settings-dropdownForeground': '#3b3b3b', 'settings-dropdownListBorder': '#c8c8c8',
    'settings-headerBorder': '#e5e5e5',
    'inputValidation-warningBackground': '#fffbe6', 'inputValidation-warningBorder': '#bf8803', 'inputValidation-errorBackground': '#f9e3e3', 'inputValidation-errorBorder': '#be1100',
    'testing-iconPassed': '#2f7a2b', 'testing-iconFailed': '#c72e0f',
    'charts-red': '#e51400', 'charts-blue': '#1a85ff', 'charts-green': '#388a34', 'charts-yellow': '#bf8803', 'charts-orange': '#d18616', 'charts-purple': '#652d90',
  },
  'high-contrast': {
    ...COMMON,
    foreground: '#ffffff', descriptionForeground: '#ffffff', errorForeground: '#f48771', 'icon-foreground': '#ffffff', focusBorder: '#f38518',
    contrastBorder: '#6fc3df', 'widget-shadow': 'transparent', 'scrollbar-shadow': 'transparent', 'sash-hoverBorder': '#f38518',
    'toolbar-hoverOutline': '#f38518',
    'editor-background': '#000000', 'editor-selectionBackground': 'rgba(255, 255, 255, 0.3)', 'editor-hoverHighlightBackground': 'rgba(173, 214, 255, 0.2)',
    'editorWidget-border': '#6fc3df', 'editorWarning-foreground': '#ffd700', 'textCodeBlock-background': '#000000',
    'textLink-foreground': '#21a6ff', 'textLink-activeForeground': '#21a6ff',
    'panel-background': '#000000', 'panel-border': '#6fc3df', 'panelTitle-activeForeground': '#ffffff', 'panelTitle-inactiveForeground': '#ffffff',
    'panelTitle-activeBorder': '#6fc3df', 'sideBar-background': '#000000', 'sideBarSectionHeader-background': '#000000', 'sideBarTitle-foreground': '#ffffff',
    'list-activeSelectionBackground': '#000000', 'list-activeSelectionForeground': '#ffffff', 'list-hoverBackground': '#000000', 'list-hoverForeground': '#ffffff',
    'list-focusHighlightForeground': '#21a6ff', 'list-highlightForeground': '#21a6ff', 'list-focusOutline': '#f38518',
    'badge-background': '#000000', 'badge-foreground': '#ffffff',
    'button-background': '#000000', 'button-foreground': '#ffffff', 'button-hoverBackground': '#000000', 'button-border': '#6fc3df', 'button-separator': '#6fc3df',
    'button-secondaryBackground': '#000000', 'button-secondaryForeground': '#ffffff', 'button-secondaryHoverBackground': '#000000',
    'checkbox-background': '#000000', 'checkbox-border': '#6fc3df', 'checkbox-foreground': '#ffffff',
    'settings-checkboxBackground': '#000000', 'settings-checkboxBorder': '#6fc3df', 'settings-checkboxForeground': '#ffffff',
    'settings-dropdownBackground': '#000000', 'settings-dropdownBorder': '#6fc3df', 'settings-dropdownForeground': '#ffffff', 'settings-dropdownListBorder': '#6fc3df',
    'settings-headerBorder': '#6fc3df',
    'inputValidation-warningBackground': '#000000', 'inputValidation-warningBorder': '#ffd700', 'inputValidation-errorBackground': '#000000', 'inputValidation-errorBorder': '#f48771',
    'testing-iconPassed': '#89d185', 'testing-iconFailed': '#f48771',
    'charts-red': '#f14c4c', 'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-yellow': '#ffff00', 'charts-orange': '#d18616', 'charts-purple': '#b180d7',
  },
};

/** The variables as CSS declarations for `body { … }`. */
export function themeCss(theme: ReportTheme): string {
  return Object.entries(THEME_VARIABLES[theme])
    .map(([k, v]) => `--vscode-${k}:${v};`)
    .join('');
}
