"""The agents under test: how each is installed, configured to reach `interview mcp` and the
fake model server, kept from calling its vendor, and run headless and in its TUI.

Each agent's settings were read from its own package (Claude Code's native binary's strings,
Codex's `codex features list` and config schema, Gemini CLI's bundled docs and code); where
each switch was found is said beside it.
"""

import json
import os

# Claude Code checks that the key is approved by its last 20 characters.
ANTHROPIC_KEY = "sk-ant-api03-interview-agents-fake-key-0000000000"


class Agent:
    name = ""
    package = ""
    version = ""
    bin = ""  # under node_modules/.bin
    ready = ""  # a regex: the TUI waits for a prompt
    busy = None  # a regex: the TUI is still starting, though `ready` shows
    form = None  # a regex: the TUI shows an MCP form; None: it renders none
    renders_forms = False  # declares form elicitation and draws it in its TUI
    tool = ""  # what the model calls the interview tool
    own_tool_env = {}  # what the agent's environment needs to offer its own ask-the-user tool
    # What a Ctrl-C (SIGINT to the process group) does to a headless run whose MCP call waits
    # in the inbox, as run.py's retry case checks it: whether the run exits, whether
    # `interview mcp` outlives it, and how the inbox may say the question was withdrawn
    # (people.WITHDRAWN). Each agent's is said beside it, as observed at its pinned version.
    ctrl_c = {"exits": True, "server_outlives": False, "withdrawn": ("withdrew",)}

    def __init__(self, root, vendor_off=True):
        self.root = os.path.join(root, self.name)
        # Whether the switches that keep the agent off its vendor's hosts are set
        # (run.py --vendor-calls leaves them out, to see what each one stops).
        self.vendor_off = vendor_off

    @property
    def exe(self):
        return os.path.join(self.root, "node_modules", ".bin", self.bin)

    def installed_version(self):
        try:
            with open(os.path.join(self.root, "node_modules", self.package, "package.json")) as f:
                return json.load(f).get("version")
        except (OSError, ValueError):
            return None

    def configure(self, home, work, url, command, env, own_tool=False, remote=None):
        """Writes the agent's configuration: `interview mcp` as `command` (a list) with `env`,
        the model at `url`, vendor calls off; with `own_tool`, whatever the agent needs to
        offer its model its own ask-the-user tool. With `remote` (endpoint URL, agent token),
        the server `interview` is that remote MCP server instead (`remote_server`), and
        `command` and `env` are not used."""
        raise NotImplementedError

    def remote_server(self, url, token):
        """The agent's own configuration entry for a remote MCP server (Streamable HTTP) at
        `url`, reached with `token` as `Authorization: Bearer`."""
        raise NotImplementedError

    def remote_env(self, token):
        """What the agent's environment needs for the remote server's token, where its
        configuration names a variable rather than the token itself."""
        return {}

    def env(self, home, url):
        return {}

    def headless(self, prompt):
        raise NotImplementedError

    def interactive(self):
        raise NotImplementedError


class Claude(Agent):
    name = "claude"
    package = "@anthropic-ai/claude-code"
    version = "2.1.332"
    bin = "claude"
    ready = r"shift\+tab to cycle|\? for shortcuts"
    form = r"requests your input"
    renders_forms = True
    tool = "mcp__interview__interview"
    # The tool and interview's tool of Claude Code's dialect (`--tools AskUserQuestion`): in
    # its TUI, an MCP tool not allowed so is held for an approval (auto mode's check needs
    # the vendor's classifier).
    allowed = ["--allowedTools", "mcp__interview__interview,mcp__interview__AskUserQuestion"]
    # Ctrl-C: `claude -p` prints "Execution error" and exits 0 at once (about 0.1 s), asking
    # the model nothing more and sending nothing over MCP. Its MCP servers are in its process
    # group: interview mcp gets the SIGINT itself, withdraws the question as it ends, and the
    # inbox says the asker withdrew it. (The default ctrl_c.)

    # What keeps Claude Code off its vendor's hosts: environment variables its binary reads.
    # CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is the umbrella (the binary maps it to
    # "essential-traffic" mode: no telemetry, no auto-update, no feedback, no plugin or
    # marketplace downloads, no feature flags); the others are the single switches it implies,
    # set too so that each still holds if the umbrella ever narrows.
    switches = {
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_FEEDBACK_COMMAND": "1",
        "CLAUDE_CODE_DISABLE_FEATURE_FLAGS": "1",
        "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
    }

    def configure(self, home, work, url, command, env, own_tool=False, remote=None):
        server = {"type": "stdio", "command": command[0], "args": command[1:]}
        if env:
            server["env"] = env
        if remote:
            server = self.remote_server(*remote)
        # The README's project file, .mcp.json.
        with open(os.path.join(work, ".mcp.json"), "w") as f:
            json.dump({"mcpServers": {"interview": server}}, f, indent=1)
        # What a person's first interactive run settles once: onboarding done, this API key
        # approved, this folder trusted, and the project's MCP server approved.
        state = {
            "hasCompletedOnboarding": True,
            "theme": "dark",
            "autoUpdates": False,
            "customApiKeyResponses": {"approved": [ANTHROPIC_KEY[-20:]], "rejected": []},
            "projects": {work: {
                "hasTrustDialogAccepted": True,
                "hasCompletedProjectOnboarding": True,
                "enabledMcpjsonServers": ["interview"],
            }},
        }
        with open(os.path.join(home, ".claude.json"), "w") as f:
            json.dump(state, f, indent=1)

    def remote_server(self, url, token):
        # The schema of an MCP server entry in its binary's strings (`type:U(["http",
        # "streamable-http"]).transform(()=>"http"),url:I(),headers:Te(r(),r()).optional(),
        # headersHelper:...,oauth:...,timeout:x().optional(),...`): Streamable HTTP is type
        # "http", the token goes in `headers`. Approved as the stdio entry is, by its name
        # (enabledMcpjsonServers); its tool by --allowedTools.
        return {"type": "http", "url": url, "headers": {"Authorization": "Bearer " + token}}

    def env(self, home, url):
        switches = self.switches if self.vendor_off else {}
        return dict(switches, ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY=ANTHROPIC_KEY)

    def headless(self, prompt):
        return [self.exe, "-p", prompt, *self.allowed]

    def interactive(self):
        return [self.exe, *self.allowed]


class Codex(Agent):
    name = "codex"
    package = "@openai/codex"
    version = "0.169.0"
    bin = "codex"
    ready = r"Ask Codex to do anything"
    busy = r"^\s*loading\s*$"
    # Its own form, or, for a form it can't draw field by field (a multi-select), a
    # question of whether to give the requested info.
    form = r"enter to submit answer|needs your approval"
    # It declares form elicitation, but its TUI cannot show interview's forms as the person
    # needs them (arrays and numbers become a yes/no prompt that accepts with nothing; empty
    # optional text fields block sending): interview does not send them, and the call goes on
    # to the next way of reaching the person.
    renders_forms = False
    tool = "interview"  # in the namespace mcp__interview, once tool_search loaded it
    # Ctrl-C: `codex exec` interrupts the turn ("turn interrupted" on stderr): it cancels the
    # waiting call (`notifications/cancelled`, "MCP request cancelled by caller") and exits 1
    # at once, asking the model nothing more. Its MCP servers are not in its process group
    # (codex-rs/rmcp-client/src/stdio_server_launcher.rs: `process_group(0)`, and a guard
    # that sends the group SIGTERM when the client is dropped, SIGKILL 2 s later), so the
    # SIGINT never reaches interview mcp; the SIGTERM of Codex's exit ends it. Either withdraws
    # the question ("Codex withdrew this question"); should interview mcp be killed before it
    # could, the inbox says it stopped waiting once it is no longer heard from.
    ctrl_c = {"exits": True, "server_outlives": False,
              "withdrawn": ("stopped waiting", "withdrew")}
    key_var = "INTERVIEW_AGENTS_OPENAI_KEY"

    def configure(self, home, work, url, command, env, own_tool=False, remote=None):
        codex_home = os.path.join(home, ".codex")
        os.makedirs(codex_home, exist_ok=True)
        q = json.dumps  # a TOML basic string is a JSON string
        lines = [
            # The model: a provider of our own on the Responses API (wire_api "responses").
            'model = "gpt-5.5"',
            'model_provider = "fake"',
            "",
        ]
        if self.vendor_off:
            lines += [
                # Vendor calls off (keys of ConfigToml in codex-rs/config/src/config_toml.rs,
                # features from `codex features list`): the update check, analytics,
                # feedback, the plugin sync (GitHub and chatgpt.com), apps (the ChatGPT
                # connectors' MCP server), tool suggestions. Each is also a `-c key=value`.
                "check_for_update_on_startup = false",
                "",
                "[analytics]",
                "enabled = false",
                "",
                "[feedback]",
                "enabled = false",
                "",
                "[features]",
                "plugins = false",
                "remote_plugin = false",
                "apps = false",
                "tool_suggest = false",
                # request_user_input outside Plan mode, for the differential cases.
                *(["default_mode_request_user_input = true"] if own_tool else []),
                "",
                # The start screen's tips; the remote announcement tip is fetched all the
                # same (raw.githubusercontent.com): no switch found for it.
                "[tui]",
                "show_tooltips = false",
                "",
            ]
        if own_tool and not self.vendor_off:
            # request_user_input outside Plan mode: the feature `default_mode_request_user_input`
            # of `codex features list` (under development, off by default).
            lines += ["[features]", "default_mode_request_user_input = true", ""]
        lines += [
            # What a person's first TUI run settles once: the model upgrade offered ("Meet
            # GPT-6 Sol") was answered "Use existing model".
            "[notice.model_migrations]",
            '"gpt-5.5" = "gpt-6-sol"',
            "",
            "[model_providers.fake]",
            'name = "fake"',
            "base_url = %s" % q(url + "/v1"),
            "env_key = %s" % q(self.key_var),
            'wire_api = "responses"',
            "",
            # What a person's first run settles: this folder is trusted.
            "[projects.%s]" % q(work),
            'trust_level = "trusted"',
            "",
            # The README's entry, plus headless approval of the tool's calls.
            "[mcp_servers.interview]",
            *(self.remote_server(*remote) if remote else [
                "command = %s" % q(command[0]),
                "args = %s" % q(command[1:]),
            ]),
            "tool_timeout_sec = 3600",
            'default_tools_approval_mode = "approve"',
        ]
        if env and not remote:
            lines += ["", "[mcp_servers.interview.env]"]
            lines += ["%s = %s" % (k, q(v)) for k, v in env.items()]
        with open(os.path.join(codex_home, "config.toml"), "w") as f:
            f.write("\n".join(lines) + "\n")

    # The variable that holds the remote server's token, in Codex's own environment.
    token_var = "INTERVIEW_TEAM_TOKEN"

    def remote_server(self, url, token):
        # The lines `codex mcp add interview --url URL --bearer-token-env-var VAR` writes
        # (0.169.0, run against a scratch CODEX_HOME): `url` is a Streamable HTTP server
        # ("--url: URL for a streamable HTTP MCP server"), and the token is read from the
        # variable `bearer_token_env_var` names (its binary also takes `http_headers`; an
        # inline `bearer_token` is refused: "uses unsupported `bearer_token`; set
        # `bearer_token_env_var`").
        return ["url = %s" % json.dumps(url),
                "bearer_token_env_var = %s" % json.dumps(self.token_var)]

    def remote_env(self, token):
        return {self.token_var: token}

    def env(self, home, url):
        return {"CODEX_HOME": os.path.join(home, ".codex"), self.key_var: "fake-openai-key"}

    def headless(self, prompt):
        return [self.exe, "exec", prompt]

    def interactive(self):
        return [self.exe]


class Gemini(Agent):
    name = "gemini"
    package = "@google/gemini-cli"
    version = "0.61.0"
    bin = "gemini"
    ready = r"Type your message"
    form = None
    renders_forms = False
    tool = "mcp_interview_interview"
    # Ctrl-C: `gemini -p` runs its exit cleanup and exits 0 at once (gracefulShutdown of
    # packages/cli/src/utils/cleanup.ts, in its bundle), asking the model nothing more and
    # sending nothing over MCP. Its MCP servers are in its process group: interview mcp gets
    # the SIGINT itself and withdraws the question as it ends.

    def configure(self, home, work, url, command, env, own_tool=False, remote=None):
        server = {"command": command[0], "args": command[1:], "timeout": 3600000, "trust": True}
        if env:
            server["env"] = env
        if remote:
            server = dict(self.remote_server(*remote), timeout=3600000, trust=True)
        settings = {
            "mcpServers": {"interview": server},
            # The key in GEMINI_API_KEY, without the auth dialog a first run shows.
            "security": {"auth": {"selectedType": "gemini-api-key"},
                         # What a person's first run settles: no folder-trust dialog.
                         "folderTrust": {"enabled": False}},
        }
        if self.vendor_off:
            # Vendor calls off (bundle/docs/reference/configuration.md): usage statistics
            # (Clearcut), telemetry, the auto-update and its notification.
            settings.update({
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            })
        os.makedirs(os.path.join(home, ".gemini"), exist_ok=True)
        with open(os.path.join(home, ".gemini", "settings.json"), "w") as f:
            json.dump(settings, f, indent=1)

    def remote_server(self, url, token):
        # What `gemini mcp add --transport http -H "Authorization: Bearer ..." NAME URL`
        # writes (0.61.0, run against a scratch HOME): `url` with `"type": "http"`, and
        # `headers`. Its bundled docs (bundle/docs/tools/mcp-server.md) still show `httpUrl`,
        # which its code (createUrlTransport, in bundle/chunk-5FZXKDXH.js) takes too but calls
        # deprecated: "Please migrate to 'url' with 'type: \"http\"'".
        return {"url": url, "type": "http", "headers": {"Authorization": "Bearer " + token}}

    def env(self, home, url):
        return {"GEMINI_API_KEY": "fake-gemini-key", "GOOGLE_GEMINI_BASE_URL": url}

    def headless(self, prompt):
        return [self.exe, "-p", prompt]

    def interactive(self):
        return [self.exe]


class Opencode(Agent):
    name = "opencode"
    package = "opencode-ai"
    version = "1.18.33"
    bin = "opencode"
    ready = r"Ask anything|ctrl\+p|tab agents|enter send"
    form = None
    renders_forms = False
    tool = "interview_interview"
    # Ctrl-C: `opencode run` does not catch it: it is ended by the SIGINT at once, and so is
    # interview mcp, in its process group, which withdraws the question as it ends. The model
    # is asked nothing more, and nothing more goes over MCP.
    # Its `question` tool is offered to the clients app, cli (OPENCODE_CLIENT's default) and
    # desktop, or wherever this is set (enableQuestionTool of RuntimeFlags, in its binary): set,
    # so that the tool is there whatever the client.
    own_tool_env = {"OPENCODE_ENABLE_QUESTION_TOOL": "1"}

    # Environment variables its binary reads (strings of the native binary).
    switches = {
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_MODELS_FETCH": "1",  # models.dev, fetched at start and hourly
        "OPENCODE_DISABLE_SHARE": "1",
        "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",  # plugins installed from npm at start
        "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
        "OPENCODE_PURE": "1",  # no external plugins (`--pure`)
    }

    def configure(self, home, work, url, command, env, own_tool=False, remote=None):
        server = {"type": "local", "command": command, "timeout": 3600000}
        if env:
            server["environment"] = env
        if remote:
            server = dict(self.remote_server(*remote), timeout=3600000)
        config = {
            "$schema": "https://opencode.ai/config.json",
            "mcp": {"interview": server},
            # The model: its built-in Anthropic provider, at the fake server.
            "model": "anthropic/claude-sonnet-4-5",
            "provider": {"anthropic": {"options": {"baseURL": url + "/v1",
                                                   "apiKey": ANTHROPIC_KEY}}},
        }
        if self.vendor_off:
            config.update({"autoupdate": False, "share": "disabled"})
        with open(os.path.join(work, "opencode.json"), "w") as f:
            json.dump(config, f, indent=1)

    def remote_server(self, url, token):
        # McpRemoteConfig in its native binary's strings: `type: "remote"`, `url`, `headers`
        # ("Headers to send with the request"), `oauth` ("Set to false to disable OAuth
        # auto-detection"), `timeout`. OAuth off: the token is the team inbox's only way in,
        # and a 401 is then a failure to see, not a sign-in flow to start.
        return {"type": "remote", "url": url,
                "headers": {"Authorization": "Bearer " + token}, "oauth": False}

    def env(self, home, url):
        return dict(self.switches) if self.vendor_off else {}

    def headless(self, prompt):
        return [self.exe, "run", prompt]

    def interactive(self):
        return [self.exe]


ALL = [Claude, Codex, Gemini, Opencode]
