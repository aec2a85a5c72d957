#!/usr/bin/perl
# tests/docs/run.sh's helpers (perl-base, in every Debian):
#   compare.pl check SHOWN GOT   prints the first shown line missing from
#                                the real output (nothing when all are there)
#   compare.pl learn SHOWN GOT MAP  appends to MAP the ids and tokens the page
#                                shows with the ones the hub really gave
#   compare.pl apply MAP         stdin to stdout with the page's ids replaced
# Comparison: runs of 8 or more hex digits stand for any such run, other
# digits for any digits, white space is ignored; "..." stands for anything; a note
# after three spaces, "   (...)", is the page's comment, not output. JSON the
# page spreads over lines may come on one line: each shown line is looked
# for in the whole output.
use strict;
use warnings;

sub slurp { my ($f) = @_; open my $h, '<', $f or die "$f: $!"; local $/; my $s = <$h>; close $h; return $s // ''; }
sub norm {
    my ($s) = @_;
    $s =~ s/[0-9a-f]{8,}/\x01/g;
    $s =~ s/[0-9]+/\x02/g;
    $s =~ s/\s+//g;
    return $s;
}

my $mode = shift;
if ($mode eq 'check') {
    my ($shown, $got) = (slurp($ARGV[0]), slurp($ARGV[1]));
    my $all = norm($got);
    for my $line (split /\n/, $shown) {
        my $l = $line;
        $l =~ s/\s{3,}\([^()]*\)\s*$//;
        $l =~ s/([0-9a-f]{4,})\.\.\./ffffffff.../g;   # "80bd...": a token cut short
        $l =~ s/,\s*$//;                             # JSON spread over lines
        next if $l =~ /^\s*(\.\.\.)?\s*$/;
        my $pos = 0;
        my $ok = 1;
        for my $piece (split /\.\.\./, $l) {
            my $p = norm($piece);
            next if $p eq '';
            my $at = index($all, $p, $pos);
            if ($at < 0) { $ok = 0; last; }
            $pos = $at + length $p;
        }
        if (!$ok) { print "$line\n"; exit 0; }
    }
} elsif ($mode eq 'learn') {
    my ($shown, $got, $map) = (slurp($ARGV[0]), slurp($ARGV[1]), $ARGV[2]);
    my @keys = ('"id":"', '"white":\{"token":"', '"black":\{"token":"', '"side":"(?:white|black)","token":"');
    open my $m, '>>', $map or die "$map: $!";
    for my $k (@keys) {
        my ($a) = $shown =~ /$k([0-9a-f]{8,})"/;
        my ($b) = $got =~ /$k([0-9a-f]{8,})"/;
        print $m "$a\t$b\n" if defined $a && defined $b && $a ne $b;
    }
    close $m;
} elsif ($mode eq 'apply') {
    my @pairs;
    if (-f $ARGV[0]) {
        for (split /\n/, slurp($ARGV[0])) { push @pairs, [split /\t/] if /\t/; }
    }
    local $/;
    my $s = <STDIN> // '';
    for my $p (@pairs) {
        my ($from, $to) = @$p;
        $s =~ s/\Q$from\E/$to/g;
        my $abbr = substr($from, 0, 4) . '...';
        $s =~ s/\Q$abbr\E/$to/g;   # "80bd..." names the token shown in full before
    }
    print $s;
}
