// The top-level keys of a config file that are not hook configuration. hookwarden reads the agents'
// own files as they are, and those hold the agent's every other setting: a Claude Code
// settings.json its `model`, `permissions`, `env`, `statusLine`…, a Gemini CLI settings.json its
// `general`, `ui`, `mcpServers`…. Those are named here, per agent, from the version each dialect was
// read against (docs/agents.md), and pass in silence; any other key is warned about ("ignored"),
// with a hookwarden key it looks like a typo of. Dependency-free.
import type { Dialect } from '../contract/dialects.js';
import { renderValue } from '../contract/messages.js';
import type { DiagnosticSink } from './diagnostics.js';
import { HOOK_TYPE_KEYS } from './hook-type-policy.js';
import { didYouMean } from './suggest.js';

/** hookwarden's own top-level keys. */
const TOP_LEVEL = new Set([
  '$schema',
  'dialect',
  'hooks',
  'policyHooks',
  'events',
  'limits',
  'packs',
  'tenants',
  'description',
  'sessionEnv',
  'grants',
  ...HOOK_TYPE_KEYS,
]);

const words = (text: string) => new Set(text.trim().split(/\s+/));

/**
 * Claude Code 2.1.333's settings (`Settings` of @anthropic-ai/claude-agent-sdk 0.3.333's sdk.d.ts),
 * and the keys of a plugin's .claude-plugin/plugin.json (its plugins reference).
 */
const CLAUDE_CODE_KEYS = words(`
  apiKeyHelper proxyAuthHelper awsCredentialExport awsAuthRefresh gcpAuthRefresh processWrapper policyHelper
  fileSuggestion respectGitignore cleanupPeriodDays desktopSessionCleanupPeriodDays syncClaudeAiSkills
  syncClaudeAiPlugins skillListingMaxDescChars skillListingBudgetFraction wslInheritsWindowsSettings env
  attribution attributionProject attributionProjectPolicy includeCoAuthoredBy includeGitInstructions permissions
  model fallbackModel availableModels enforceAvailableModels availableModelsMatch deniedModels modelOverrides
  modelPicker modelPricing enableAllProjectMcpServers enabledMcpjsonServers disabledMcpjsonServers
  disableClaudeAiConnectors skillOverrides disableBundledSkills managedMcpServers allowedMcpServers
  deniedMcpServers worktree disableAllHooks disableReplyCheck disableAgentView disableRemoteControl
  disableWorkflows disableArtifact enableArtifact enableWorkflows workflowSizeGuideline
  workflowKeywordTriggerEnabled disableSkillShellExecution disableWindowsBashCommandSplit defaultShell
  bashEditDiffEnabled bashOutputMaxChars taskOutputMaxChars respondToBashCommands allowManagedHooksOnly
  allowedHttpHookUrls httpHookAllowedEnvVars allowManagedPermissionRulesOnly allowManagedMcpServersOnly
  desktopMcpServersListScope allowAllClaudeAiMcps allowClaudeInChromeWithManagedMcp
  strictPluginOnlyCustomization statusLine prUrlTemplate footerLinksRegexes subagentStatusLine enabledPlugins
  prependPlugins appendPlugins extraKnownMarketplaces additionalMarketplaces strictKnownMarketplaces
  allowedMarketplaces blockedMarketplaces disableCommandPluginSources disableSideloadFlags
  pluginSuggestionMarketplaces forceLoginMethod forceLoginGatewayUrl gatewayInternalNetworks
  parentSettingsBehavior managedSourcesBehavior forceLoginOrgUUID allowNestedModelAccessUnderForceLogin
  allowedProviders forceRemoteSettingsRefresh otelHeadersHelper outputStyle viewMode language
  skipWebFetchPreflight sandbox feedbackSurveyRate feedbackDrafts spinnerTipsEnabled spinnerVerbs
  spinnerTipsOverride syntaxHighlightingDisabled maxProseWidth spellcheck terminalTitleFromRename
  promptCacheTtl subagentPromptCacheTtl alwaysThinkingEnabled effortLevel maxEffortLevel modelSettings
  ultracode autoCompactWindow advisorModel fastMode fastModePerSessionOptIn promptSuggestionEnabled
  emojiCompletionEnabled showClearContextOnPlanAccept askUserQuestionTimeout dialogExpiry agent
  companyAnnouncements pluginConfigs remote autoUpdatesChannel minimumVersion requiredMinimumVersion
  requiredMaximumVersion downloadsMirrorUrl plansDirectory tui voice channelsEnabled allowedChannelPlugins
  prefersReducedMotion timeFormat timeZone autoMemoryEnabled autoMemoryDirectory autoDreamEnabled
  showThinkingSummaries skipDangerousModePermissionPrompt disableAutoMode sshConfigs sshHostCommands claudeMd
  claudeMdExcludes pluginTrustMessage theme editorMode keybindingFlavor vimInsertModeRemaps verbose
  preferredNotifChannel autoCompactEnabled precomputeCompactionEnabled idleCompaction switchModelsOnFlag
  autoContinueAtUsageLimit autoScrollEnabled wheelScrollAccelerationEnabled fileCheckpointingEnabled
  showTurnDuration showMessageTimestamps terminalProgressBarEnabled todoFeatureEnabled teammateMode
  remoteControlAtStartup isolatePeerMachines daemonColdStart crossSessionInbound autoUploadSessions
  inputNeededNotifEnabled agentPushNotifEnabled skipAutoPermissionPrompt useAutoModeDuringPlan autoMode
  disableDeepLinkRegistration voiceEnabled defaultView
  name version author homepage repository license keywords commands agents skills mcpServers outputStyles
  lspServers
`);

/** Gemini CLI 0.61.0's settings (SETTINGS_SCHEMA of its bundle): every top-level category. */
const GEMINI_KEYS = words(`
  mcpServers general output ui ide privacy telemetry billing model modelConfigs agents context tools mcp
  useWriteTodos security advanced experimental extensions skills hooksConfig contextManagement admin
`);

/** The agent's own settings a file of `dialect` may hold besides its hooks (passed in silence). */
const AGENT_KEYS: Partial<Record<Dialect, ReadonlySet<string>>> = {
  'claude-code': CLAUDE_CODE_KEYS,
  gemini: GEMINI_KEYS,
};

/**
 * The top-level keys left to judge once a coding agent's own are set aside: Cursor's and Copilot's
 * `"version"` (which must be 1, or the agent refuses the file), Copilot's `disableAllHooks`, Claude
 * Code's and Gemini CLI's settings, and a Codex config.toml's (only `[hooks]` is hook configuration
 * there; keys that look like a typo of hookwarden's are still named).
 */
function agentTopLevel(dialect: Dialect, value: Record<string, unknown>, sink: DiagnosticSink): string[] {
  const keys = Object.keys(value);
  if (dialect === 'cursor' || dialect === 'copilot') {
    if (value.version !== undefined && value.version !== 1)
      sink.warn(
        'version',
        `${dialect === 'cursor' ? 'Cursor' : 'Copilot CLI'} reads only "version": 1 files, got ${renderValue(value.version)}`,
      );
    if (dialect === 'copilot' && value.disableAllHooks === true)
      sink.warn(
        'disableAllHooks',
        'Copilot CLI runs none of these hooks (disableAllHooks: true); hookwarden still does',
      );
    return keys.filter((k) => k !== 'version' && !(dialect === 'copilot' && k === 'disableAllHooks'));
  }
  if (dialect === 'codex') return keys.filter((k) => didYouMean(k, TOP_LEVEL) !== '');
  const own = AGENT_KEYS[dialect];
  return own === undefined ? keys : keys.filter((k) => !own.has(k));
}

/** Warns about the top-level keys that are neither hookwarden's nor the agent's own settings. */
export function warnIgnoredKeys(
  dialect: Dialect,
  value: Record<string, unknown>,
  sink: DiagnosticSink,
  policy: boolean,
): void {
  const ignored = agentTopLevel(dialect, value, sink).filter((k) => !TOP_LEVEL.has(k));
  if (ignored.length === 0) return;
  const hints = ignored.map((k) => didYouMean(k, TOP_LEVEL)).filter((h) => h !== '');
  const agent =
    AGENT_KEYS[dialect] === undefined ? '' : `, nor a setting of the ${dialect} version hookwarden read`;
  sink.warn(
    '',
    `ignored top-level keys (not hook configuration${agent}): ${ignored.map((k) => `${k}${didYouMean(k, TOP_LEVEL)}`).join(', ')}`,
    policy || hints.length > 0,
  );
}
