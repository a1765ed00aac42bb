function __ps-send_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-send_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-send_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-send_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-send_parse_tokens -S
    set -l unparsed_tokens (__ps-send_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-send'
        __ps-send_parse_subcommand -r 1 'max-record-size=' 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'page=' 'agent=' 'new-conversation' 'drive=' 'provider=' 'model=' 'system=' 'max-stdin-bytes=' 'print-ids' 'resume=' 'from-seq=' 'regenerate' 'answer=+' 'history=' 'no-resume' 'list-streams' 'extract-facts-every=' 'attach=+' 'raw' 'render' 'redact' 'allow-secrets' 'archive' 'no-archive' 'template=' 'schema=' 'repair=' 'var=+' 'print' 'tool=+' 'mcp=+' 'deny-tool=+' 'confirm' 'max-tool-steps=' 'tool-timeout=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-send_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-send_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-send_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __ps-send_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-send_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-send_tokens -p)
    if test -z "$(__ps-send_tokens -t)"
        set -l index (count (__ps-send_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-send' -f
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-record-size' -l 'max-record-size' -d 'The longest line, event or record held, in MiB. Default 64; also PS_MAX_RECORD_MIB.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-send_custom_completion ---completion -- --profile (count (__ps-send_tokens -pc)) (__ps-send_tokens -tC))'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" conversation' -l 'conversation' -d 'The conversation to send to. A Global assistant conversation, or with --page the agent\'s.' -rfka '(__ps-send_custom_completion ---completion -- --conversation (count (__ps-send_tokens -pc)) (__ps-send_tokens -tC))'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" page' -l 'page' -d 'Send to this Page AI agent (an AI_CHAT page).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" agent' -l 'agent' -d 'Send to this Page AI agent, by title or page id. The title is matched ignoring case; a page id is as --page.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" new-conversation' -l 'new-conversation' -d 'Start a new conversation. A Global assistant one, or an OpenAI-compatible server\'s.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" drive' -l 'drive' -d 'The drive the user is in, sent as context. With --page, the page\'s drive.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" provider' -l 'provider' -d 'The AI provider (selectedProvider); PageSpace runs and stores it only with --model.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" model' -l 'model' -d 'The model to use (selectedModel); default: the profile\'s (ps-auth set-model). PageSpace runs and stores it (the user\'s default, with --page the agent\'s) only with --provider; Gemini keeps it as a new conversation\'s.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" system' -l 'system' -d 'A system prompt sent with the conversation. Only to OpenAI-compatible servers; PageSpace uses the agent\'s own.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-stdin-bytes' -l 'max-stdin-bytes' -d 'The most piped input taken (default 1048576). It is the context after the arguments.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" print-ids' -l 'print-ids' -d 'Print the ids on stderr, for scripts. The lines are conversation=ID, message=ID and stream=ID.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" resume' -l 'resume' -d 'Write a reply that is being generated. Nothing is sent; the current API, with a session token.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" from-seq' -l 'from-seq' -d 'With --resume: start at this chunk (default 0).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" regenerate' -l 'regenerate' -d 'Ask again: replace the last reply. The conversation\'s last reply is deleted and its last message sent once more.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'answer' -d 'Answer the assistant\'s question (exit 11). Once per question; an option\'s label picks it, other text is the answer.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" history' -l 'history' -d 'Start a conversation from these messages. They are ps-history output (- for stdin), for APIs where the client keeps conversations.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" no-resume' -l 'no-resume' -d 'On a broken connection, stop (exit 9). By default ps-send joins the reply again.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" list-streams' -l 'list-streams' -d 'List the replies being generated now. They are NDJSON (messageId, conversationId, ...); nothing is sent.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" extract-facts-every' -l 'extract-facts-every' -d 'Have facts extracted every n messages (Lucid). After the send, when the conversation\'s message count reaches a multiple of n.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'attach' -d 'Attach this file (repeatable). A JPEG, PNG, GIF or WebP image is sent as a file part; a UTF-8 text file goes into the message.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" raw' -l 'raw' -d 'Raw event stream, or the rendered reply. --raw writes the raw stream even on a terminal; --render renders even into a pipe (default: rendered on a terminal, raw otherwise).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" render' -l 'render' -d 'Raw event stream, or the rendered reply. --raw writes the raw stream even on a terminal; --render renders even into a pipe (default: rendered on a terminal, raw otherwise).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" redact' -l 'redact' -d 'Send with each secret found replaced. A secret becomes [REDACTED:kind].'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" allow-secrets' -l 'allow-secrets' -d 'Send secrets found as they are. By default a text holding one is refused.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" archive' -l 'archive' -d 'Keep each exchange in the archive (ps-search --archive), or not. Default: "archive" in config.json, else not.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" no-archive' -l 'no-archive' -d 'Keep each exchange in the archive (ps-search --archive), or not. Default: "archive" in config.json, else not.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" template' -l 'template' -d 'Make the message from a template, its {{name}} placeholders filled. FILE, or NAME for $XDG_CONFIG_HOME/ps-tools/templates/NAME.md.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" schema' -l 'schema' -d 'Check the answer against a JSON Schema. FILE or inline JSON; the valid value is kept as JSON, one still invalid exits 3.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" repair' -l 'repair' -d 'With --schema: send an invalid answer back n times (default 1). Each time with what is wrong.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'var' -d 'A template value (repeatable). Each {{name}} needs one, and each one its {{name}}; piped text fills {{stdin}}.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" print' -l 'print' -d 'Print the message instead of sending it. A dry run: filled in and checked for secrets, as it would be sent.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'tool' -d 'Offer this executable as a tool (repeatable). FILE --describe prints its definition; a call runs FILE, arguments as JSON on stdin.' -rF
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'mcp' -d 'Offer this MCP server\'s tools (repeatable). A name in mcp.json, an http(s) URL, or a command line (stdio).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'deny-tool' -d 'Do not offer the tool NAME (repeatable). A call of it then ends the run (exit 10).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" confirm' -l 'confirm' -d 'Ask before each tool call. Only on a terminal (stdin and stderr); refused otherwise (exit 2).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-tool-steps' -l 'max-tool-steps' -d 'The most steps of tool calls (default 10). A model that asks for more: exit 10.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" tool-timeout' -l 'tool-timeout' -d 'Seconds a tool call may take (default 60). Past it, the call is stopped and the model told.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" version' -l 'version' -d 'Show the version.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send help" version' -l 'version' -d 'Show the version.'
