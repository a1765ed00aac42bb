function __ps-archive-postgres_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-archive-postgres_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-archive-postgres_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-archive-postgres_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-archive-postgres_parse_tokens -S
    set -l unparsed_tokens (__ps-archive-postgres_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-archive-postgres'
        __ps-archive-postgres_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'archive'
            __ps-archive-postgres_parse_subcommand 0 'max-record-size=' 'db=' 'source=' 'keep-deleted' 'stats' 'export' 'json' 'version' 'h/help'
        case 'search'
            __ps-archive-postgres_parse_subcommand 1 'db=' 'limit=' 'json' 'source=' 'conversation=' 'role=' 'since=' 'until=' 'version' 'h/help'
        case 'help'
            __ps-archive-postgres_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-archive-postgres_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-archive-postgres_parse_subcommand -S -a positional_count
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

function __ps-archive-postgres_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-archive-postgres_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-archive-postgres_tokens -p)
    if test -z "$(__ps-archive-postgres_tokens -t)"
        set -l index (count (__ps-archive-postgres_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-archive-postgres' -f
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres" version' -l 'version' -d 'Show the version.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_positional "ps-archive-postgres" -eq 1' -fa 'archive' -d 'Store records from standard input, or write --stats or --export (the default).'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_positional "ps-archive-postgres" -eq 1' -fa 'search' -d 'Search the archive: the records and list of ps-search --archive.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_positional "ps-archive-postgres" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" max-record-size' -l 'max-record-size' -d 'The longest line, event or record held, in MiB. Default 64; also PS_MAX_RECORD_MIB.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" db' -l 'db' -d 'The archive: postgresql://USER@HOST[:PORT]/DATABASE.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" source' -l 'source' -d 'The source of records without an "origin" key (default: "default"); with --export, only this source\'s records.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" keep-deleted' -l 'keep-deleted' -d 'Keep deleted messages (marked deleted) instead of removing them.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" stats' -l 'stats' -d 'Write the number of messages and conversations per source, and the oldest and newest.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" export' -l 'export' -d 'Write the stored records back out as NDJSON.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" json' -l 'json' -d 'Write NDJSON records even on a terminal (--stats).'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" version' -l 'version' -d 'Show the version.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres archive" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" db' -l 'db' -d 'The archive: postgresql://USER@HOST[:PORT]/DATABASE.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" limit' -l 'limit' -d 'At most this many hits (default: 20).' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" json' -l 'json' -d 'Write NDJSON records even on a terminal.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" source' -l 'source' -d 'Only archived messages from this source.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" conversation' -l 'conversation' -d 'Only archived messages of this conversation.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" role' -l 'role' -d 'Only archived messages with this role: user, assistant or system.' -rfka 'user assistant system'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" since' -l 'since' -d 'Only archived messages created at or after this time, e.g. 2025-11-01.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" until' -l 'until' -d 'Only archived messages created before this time.' -rfka ''
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" version' -l 'version' -d 'Show the version.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres search" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-archive-postgres' -n '__ps-archive-postgres_should_offer_completions_for_flags_or_options "ps-archive-postgres help" version' -l 'version' -d 'Show the version.'
