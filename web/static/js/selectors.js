// Selectors: the page's DOM hooks, the names the browser tests use too, in one table.

export const SEL = Object.freeze({
  config: "#loopstep-config",
  block: "[data-loopstep-block]",
  line: "[data-line]:not([data-change])", // history entries carry data-line too
  lineN: (n) => `[data-line="${Number(n)}"]`,
  gutter: "button[data-gutter]",
  action: "button[data-action]",
  current: '[aria-current="step"]',
  scenario: 'select[data-role="scenario"]',
  timeline: 'input[type=range][data-role="timeline"]',
  ticks: '[data-role="ticks"]',
  stepCount: '[data-role="step-count"]',
  status: '[data-role="status"]',
  variables: '[data-role="variables"]',
  stack: '[data-role="stack"]',
  output: '[data-role="output"]',
  outputHint: '[data-role="output-hint"]',
  exception: '[data-role="exception"]',
  setup: 'details[data-role="setup"]',
  setupCode: '[data-role="setup-code"]',
  compare: 'select[data-role="compare"]',
  eventForm: 'form[data-role="event-breakpoint"]',
  eventList: '[data-role="event-breakpoints"]',
  eventError: '[data-role="event-bp-error"]',
  comparison: '[data-role="comparison"]',
  setupEditor: '[data-role="setup-editor"]',
  setupHost: '[data-role="setup-host"]',
  setupError: '[data-role="setup-error"]',
  diagram: '[data-role="diagram"]',
  stage: "[data-stage]",
  stageFacts: '[data-role="stage-facts"]',
  runtime: '[data-role="runtime"]',
  runtimeLabel: '[data-role="runtime-label"]',
  runtimeProgress: '[data-role="runtime-progress"]',
});

export const EVENTS = Object.freeze({
  init: "loopstep:init",
  pause: "loopstep:pause",
  finish: "loopstep:finish",
  resize: "loopstep:resize",
});
