function __ps-render_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-render_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-render_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-render_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-render_parse_tokens -S
    set -l unparsed_tokens (__ps-render_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-render'
        __ps-render_parse_subcommand 1 'format=' 'width=' 'tools=' 'reasoning=' 'links=' 'usage=' 'live' 'no-live' 'max-record-size=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-render_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-render_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-render_parse_subcommand -S -a positional_count
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

function __ps-render_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-render_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-render_tokens -p)
    if test -z "$(__ps-render_tokens -t)"
        set -l index (count (__ps-render_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-render' -f
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" format' -l 'format' -d 'Output format: auto, ansi, plain, markdown, or text (only the reply\'s words, as they arrive).' -rfka 'auto ansi plain markdown text'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" width' -l 'width' -d 'Columns to wrap to, 10 to 1000 (default: COLUMNS, clamped to that range, then the terminal\'s width, then 80).' -rfka ''
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" tools' -l 'tools' -d 'Tool calls as one-line summaries (compact) or with their whole input and output (full).' -rfka 'compact full'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" reasoning' -l 'reasoning' -d 'Show reasoning (dimmed) or hide it.' -rfka 'show hide'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" links' -l 'links' -d 'Links in ansi: osc8 (hyperlinks), inline (`text <url>`), or auto (osc8 where the terminal is known to show them).' -rfka 'osc8 inline auto'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" usage' -l 'usage' -d 'After a reply, a dim line with its token count where the stream gave one (`1,234 in · 567 out`): show or hide (default: show on a terminal).' -rfka 'show hide'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" live' -l 'live' -d 'Show the block being written live, redrawn as it grows (default: on a terminal, with ansi or plain).'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" no-live' -l 'no-live' -d 'Show the block being written live, redrawn as it grows (default: on a terminal, with ansi or plain).'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" max-record-size' -l 'max-record-size' -d 'The longest line, event or record held, in MiB. Default 64; also PS_MAX_RECORD_MIB.' -rfka ''
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" version' -l 'version' -d 'Show the version.'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-render' -n '__ps-render_should_offer_completions_for_flags_or_options "ps-render help" version' -l 'version' -d 'Show the version.'
