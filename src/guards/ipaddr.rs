//! IP address parsing and special-use ranges with the semantics of the `ipaddr.js` 2.5.0 library
//! that both OpenClaw releases bundle. The SSRF verdict of odd literals (`0x7f.1`, `::1.2.3.4`,
//! `1:2::3%eth0`) depends on exactly what that library accepts, so the acceptance rules here
//! follow its behaviour rather than the stricter `std::net` parsers.

use std::sync::LazyLock;

use regex::Regex;

/// A parsed address, as `ipaddr.js` represents it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ip {
    V4([u8; 4]),
    V6 { parts: [u16; 8], zone: Option<String> },
}

/// One named special-use range: the name `ipaddr.js` gives it, and its CIDR blocks.
struct NamedRange {
    name: &'static str,
    blocks: &'static [(&'static str, u8)],
}

/// IPv4 special-use ranges in the library's match order; the first match names the range.
const IPV4_RANGES: &[NamedRange] = &[
    NamedRange { name: "unspecified", blocks: &[("0.0.0.0", 8)] },
    NamedRange { name: "broadcast", blocks: &[("255.255.255.255", 32)] },
    NamedRange { name: "multicast", blocks: &[("224.0.0.0", 4)] },
    NamedRange { name: "linkLocal", blocks: &[("169.254.0.0", 16)] },
    NamedRange { name: "loopback", blocks: &[("127.0.0.0", 8)] },
    NamedRange { name: "carrierGradeNat", blocks: &[("100.64.0.0", 10)] },
    NamedRange { name: "private", blocks: &[("10.0.0.0", 8), ("172.16.0.0", 12), ("192.168.0.0", 16)] },
    NamedRange {
        name: "reserved",
        blocks: &[
            ("192.0.0.0", 24),
            ("192.0.2.0", 24),
            ("192.88.99.0", 24),
            ("198.18.0.0", 15),
            ("198.51.100.0", 24),
            ("203.0.113.0", 24),
            ("240.0.0.0", 4),
        ],
    },
    NamedRange { name: "as112", blocks: &[("192.175.48.0", 24), ("192.31.196.0", 24)] },
    NamedRange { name: "amt", blocks: &[("192.52.193.0", 24)] },
];

/// IPv6 special-use ranges in the library's match order.
const IPV6_RANGES: &[NamedRange] = &[
    NamedRange { name: "unspecified", blocks: &[("::", 128)] },
    NamedRange { name: "linkLocal", blocks: &[("fe80::", 10)] },
    NamedRange { name: "multicast", blocks: &[("ff00::", 8)] },
    NamedRange { name: "loopback", blocks: &[("::1", 128)] },
    NamedRange { name: "uniqueLocal", blocks: &[("fc00::", 7)] },
    NamedRange { name: "ipv4Mapped", blocks: &[("::ffff:0:0", 96)] },
    NamedRange { name: "deprecatedSiteLocal", blocks: &[("fec0::", 10)] },
    NamedRange { name: "discard", blocks: &[("100::", 64)] },
    NamedRange { name: "rfc6145", blocks: &[("::ffff:0:0:0", 96)] },
    NamedRange { name: "rfc6052", blocks: &[("64:ff9b::", 96), ("64:ff9b:1::", 48)] },
    NamedRange { name: "6to4", blocks: &[("2002::", 16)] },
    NamedRange { name: "teredo", blocks: &[("2001::", 32)] },
    NamedRange { name: "benchmarking", blocks: &[("2001:2::", 48)] },
    NamedRange { name: "amt", blocks: &[("2001:3::", 32)] },
    NamedRange { name: "as112v6", blocks: &[("2001:4:112::", 48), ("2620:4f:8000::", 48)] },
    NamedRange { name: "deprecatedOrchid", blocks: &[("2001:10::", 28)] },
    NamedRange { name: "orchid2", blocks: &[("2001:20::", 28)] },
    NamedRange { name: "droneRemoteIdProtocolEntityTags", blocks: &[("2001:30::", 28)] },
    NamedRange { name: "segmentRouting", blocks: &[("5f00::", 16)] },
    NamedRange { name: "reserved", blocks: &[("2001::", 23), ("2001:db8::", 32), ("3fff::", 20)] },
];

/// The range an address falls in: the library's name for it and the CIDR block that matched.
/// Addresses outside every special-use range are `unicast` with no block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    pub name: &'static str,
    pub cidr: Option<String>,
}

const V4_PART: &str = "(0?[0-9]+|0x[a-f0-9]+)";
const ZONE: &str = "%[0-9a-z]{1,}";
const V6_PART: &str = "(?:[0-9a-f]+::?)+";

fn compile(pattern: String) -> Regex {
    Regex::new(&format!("(?i){pattern}")).expect("static pattern")
}

static V6_NATIVE: LazyLock<Regex> = LazyLock::new(|| compile(format!("^(::)?({V6_PART})?([0-9a-f]+)?(::)?({ZONE})?$")));
static V6_DEPRECATED_TRANSITIONAL: LazyLock<Regex> =
    LazyLock::new(|| compile(format!(r"^(?:::)({V4_PART}\.{V4_PART}\.{V4_PART}\.{V4_PART}({ZONE})?)$")));
static V6_TRANSITIONAL: LazyLock<Regex> = LazyLock::new(|| {
    compile(format!(r"^((?:{V6_PART})|(?:::)(?:{V6_PART})?){V4_PART}\.{V4_PART}\.{V4_PART}\.{V4_PART}({ZONE})?$"))
});
static ZONE_INDEX: LazyLock<Regex> = LazyLock::new(|| compile(ZONE.to_string()));
static FOUR_PART_DECIMAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){3}$").expect("static pattern"));

/// Digits to a number, saturating: any value too large for u64 is out of every valid range.
fn digits(text: &str, radix: u32) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.chars()
        .try_fold(0u64, |acc, c| Some(acc.saturating_mul(u64::from(radix)).saturating_add(c.to_digit(radix)?.into())))
}

/// One IPv4 part: `0x…` hexadecimal, a leading zero followed by digits octal, else decimal.
fn ipv4_part(part: &str) -> Option<u64> {
    let lower = part.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return digits(hex, 16);
    }
    let bytes = part.as_bytes();
    if bytes.len() > 1 && bytes[0] == b'0' && bytes[1].is_ascii_digit() {
        return digits(&part[1..], 8);
    }
    digits(part, 10)
}

/// An IPv4 address in any spelling the library accepts: four parts, or one, two or three parts
/// whose last part fills the remaining octets; each part decimal, octal or hexadecimal. The
/// library matches a regular expression per part count (`V4_PART` joined by dots); the parts
/// are checked here directly (a test holds the two to the same answers), as this runs for every
/// host the SSRF guard sees.
pub fn parse_ipv4_loose(text: &str) -> Option<[u8; 4]> {
    let mut parts = [0u64; 4];
    let mut count = 0;
    for part in text.split('.') {
        if count == parts.len() || !is_v4_part(part) {
            return None;
        }
        parts[count] = ipv4_part(part)?;
        count += 1;
    }
    let octets = match (count, parts) {
        (4, p) => p,
        (1, [value, ..]) if value <= 0xFFFF_FFFF => [value >> 24, (value >> 16) & 255, (value >> 8) & 255, value & 255],
        (2, [a, rest, ..]) if rest <= 0xFF_FFFF => [a, (rest >> 16) & 255, (rest >> 8) & 255, rest & 255],
        (3, [a, b, rest, _]) if rest <= 0xFFFF => [a, b, (rest >> 8) & 255, rest & 255],
        _ => return None,
    };
    let mut out = [0u8; 4];
    for (slot, value) in out.iter_mut().zip(octets) {
        *slot = u8::try_from(value).ok()?;
    }
    Some(out)
}

/// One part as `V4_PART` reads it: decimal digits, or `0x` and hexadecimal digits (any case).
fn is_v4_part(part: &str) -> bool {
    match part.as_bytes() {
        [b'0', b'x' | b'X', hex @ ..] if !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit) => true,
        digits => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
    }
}

/// True only for the canonical dotted-decimal form `a.b.c.d` (no leading zeros).
pub fn is_four_part_decimal(text: &str) -> bool {
    parse_ipv4_loose(text).is_some() && FOUR_PART_DECIMAL.is_match(text)
}

/// Expands `::` to fill `count` groups; `None` where the library gives up. The result may hold
/// the wrong number of groups (the caller rejects it) and `None` entries for unparsable groups.
fn expand_ipv6(text: &str, count: usize) -> Option<(Vec<Option<u16>>, Option<String>)> {
    if text.find("::") != text.rfind("::") {
        return None;
    }
    let zone = ZONE_INDEX.find(text).map(|m| m.as_str()[1..].to_string());
    let mut text = text.to_string();
    if zone.is_some()
        && let Some(at) = text.find('%')
        && at + 1 < text.len()
    {
        text.truncate(at);
    }
    let mut colons = text.matches(':').count();
    if text.starts_with("::") {
        colons = colons.saturating_sub(1);
    }
    if text.ends_with("::") {
        colons = colons.saturating_sub(1);
    }
    if colons >= count {
        return None;
    }
    let replacement = format!(":{}", "0:".repeat(count - colons));
    let mut text = text.replacen("::", &replacement, 1);
    if text.starts_with(':') {
        text.remove(0);
    }
    if text.ends_with(':') {
        text.pop();
    }
    let groups = text
        .split(':')
        .map(|group| if group.len() > 4 { None } else { digits(group, 16).and_then(|v| u16::try_from(v).ok()) })
        .collect();
    Some((groups, zone))
}

fn complete_groups(groups: Vec<Option<u16>>) -> Option<[u16; 8]> {
    let groups: Vec<u16> = groups.into_iter().collect::<Option<_>>()?;
    groups.try_into().ok()
}

/// An IPv6 address as the library accepts it: native form, the `::a.b.c.d` form (read as
/// IPv4-mapped), or a transitional form ending in dotted IPv4; an optional `%zone`.
pub fn parse_ipv6(text: &str) -> Option<Ip> {
    if !text.contains(':') {
        return None;
    }
    if let Some(caps) = V6_DEPRECATED_TRANSITIONAL.captures(text) {
        return parse_ipv6(&format!("::ffff:{}", &caps[1]));
    }
    if V6_NATIVE.is_match(text) {
        let (groups, zone) = expand_ipv6(text, 8)?;
        return Some(Ip::V6 { parts: complete_groups(groups)?, zone });
    }
    let caps = V6_TRANSITIONAL.captures(text)?;
    let zone_suffix = caps.get(6).map_or("", |m| m.as_str());
    let prefix = &caps[1];
    let prefix = if prefix.ends_with("::") { prefix } else { &prefix[..prefix.len() - 1] };
    let (mut groups, zone) = expand_ipv6(&format!("{prefix}{zone_suffix}"), 6)?;
    let mut octets = [0u16; 4];
    for (slot, index) in octets.iter_mut().zip(2..6) {
        // The library reads these with a radix-less parseInt: `0x` prefix hexadecimal, else decimal.
        let part = &caps[index];
        let value = match part.to_ascii_lowercase().strip_prefix("0x") {
            Some(hex) => digits(hex, 16),
            None => digits(part, 10),
        }?;
        *slot = u16::try_from(value).ok().filter(|v| *v <= 255)?;
    }
    groups.push(Some(octets[0] << 8 | octets[1]));
    groups.push(Some(octets[2] << 8 | octets[3]));
    Some(Ip::V6 { parts: complete_groups(groups)?, zone })
}

/// `ipaddr.parse`: IPv6 first, then IPv4 in any accepted spelling.
pub fn parse_any(text: &str) -> Option<Ip> {
    parse_ipv6(text).or_else(|| parse_ipv4_loose(text).map(Ip::V4))
}

fn v4_bits(octets: [u8; 4]) -> u128 {
    u128::from(u32::from_be_bytes(octets))
}

fn v6_bits(parts: &[u16; 8]) -> u128 {
    parts.iter().fold(0u128, |acc, part| (acc << 16) | u128::from(*part))
}

fn in_block(bits: u128, width: u32, base: u128, prefix: u8) -> bool {
    let prefix = u32::from(prefix);
    prefix == 0 || (bits ^ base) >> (width - prefix) == 0
}

fn block_base(text: &str) -> u128 {
    match parse_any(text) {
        Some(Ip::V4(octets)) => v4_bits(octets),
        Some(Ip::V6 { parts, .. }) => v6_bits(&parts),
        None => unreachable!("range table entries are valid addresses"),
    }
}

/// A range table with its base addresses parsed once: (name, [(base bits, prefix, base text)]).
type ParsedTable = Vec<(&'static str, Vec<(u128, u8, &'static str)>)>;

fn parse_table(table: &'static [NamedRange]) -> ParsedTable {
    table
        .iter()
        .map(|range| {
            (range.name, range.blocks.iter().map(|(base, prefix)| (block_base(base), *prefix, *base)).collect())
        })
        .collect()
}

static IPV4_TABLE: LazyLock<ParsedTable> = LazyLock::new(|| parse_table(IPV4_RANGES));
static IPV6_TABLE: LazyLock<ParsedTable> = LazyLock::new(|| parse_table(IPV6_RANGES));

impl Ip {
    /// The library's range name for this address, with the block that matched.
    pub fn range(&self) -> Range {
        let (bits, width, table) = match self {
            Ip::V4(octets) => (v4_bits(*octets), 32, &*IPV4_TABLE),
            Ip::V6 { parts, .. } => (v6_bits(parts), 128, &*IPV6_TABLE),
        };
        table
            .iter()
            .find_map(|(name, blocks)| {
                blocks
                    .iter()
                    .find(|(base, prefix, _)| in_block(bits, width, *base, *prefix))
                    .map(|(_, prefix, text)| Range { name, cidr: Some(format!("{text}/{prefix}")) })
            })
            .unwrap_or(Range { name: "unicast", cidr: None })
    }

    pub fn is_v4(&self) -> bool {
        matches!(self, Ip::V4(_))
    }

    /// The IPv6 groups, for IPv6 addresses.
    pub fn v6_parts(&self) -> Option<&[u16; 8]> {
        match self {
            Ip::V6 { parts, .. } => Some(parts),
            Ip::V4(_) => None,
        }
    }

    /// IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as IPv4; anything else unchanged.
    pub fn unmapped(&self) -> Ip {
        match self {
            Ip::V6 { parts, .. } if self.range().name == "ipv4Mapped" => Ip::V4(ipv4_from_groups(parts[6], parts[7])),
            other => other.clone(),
        }
    }
}

/// Four octets from two IPv6 groups.
pub fn ipv4_from_groups(high: u16, low: u16) -> [u8; 4] {
    let [a, b] = high.to_be_bytes();
    let [c, d] = low.to_be_bytes();
    [a, b, c, d]
}

impl std::fmt::Display for Ip {
    /// Dotted quad, or RFC 5952 text with the zone, as the library prints them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ip::V4([a, b, c, d]) => write!(f, "{a}.{b}.{c}.{d}"),
            Ip::V6 { parts, zone } => {
                let groups: Vec<String> = parts.iter().map(|p| format!("{p:x}")).collect();
                // The longest run of two or more zero groups is compressed; the first wins a tie.
                let mut best: Option<(usize, usize)> = None;
                let mut start = 0;
                while start < 8 {
                    let len = parts[start..].iter().take_while(|p| **p == 0).count();
                    if len >= 2 && best.is_none_or(|(_, best_len)| len > best_len) {
                        best = Some((start, len));
                    }
                    start += len.max(1);
                }
                match best {
                    Some((at, len)) => write!(f, "{}::{}", groups[..at].join(":"), groups[at + len..].join(":"))?,
                    None => f.write_str(&groups.join(":"))?,
                }
                match zone {
                    Some(zone) => write!(f, "%{zone}"),
                    None => Ok(()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's own IPv4 matching: a regular expression per part count, tried in its order.
    fn parse_ipv4_as_the_library_matches(text: &str) -> Option<[u8; 4]> {
        let joined = |count: usize| compile(format!("^{}$", vec![V4_PART; count].join(r"\.")));
        let parts: Vec<u64> = [4, 1, 2, 3].into_iter().find_map(|count| {
            let caps = joined(count).captures(text)?;
            Some(caps.iter().skip(1).map(|m| ipv4_part(m?.as_str())).collect::<Option<Vec<u64>>>())
        })??;
        let value = *parts.last()?;
        let filled = 4 - (parts.len() - 1);
        if filled < 4 && value >> (8 * filled) != 0 || filled == 4 && value > 0xFFFF_FFFF {
            return None;
        }
        let mut octets: Vec<u64> = parts[..parts.len() - 1].to_vec();
        octets.extend((0..filled).rev().map(|i| (value >> (8 * i)) & 255));
        octets.into_iter().map(|v| u8::try_from(v).ok()).collect::<Option<Vec<u8>>>()?.try_into().ok()
    }

    proptest::proptest! {
        #[test]
        fn ipv4_parts_are_read_as_the_library_reads_them(
            text in r"((0[xX][0-9a-fA-F]{1,4}|[0-9]{1,4}|[0-9a-fA-FxX]{0,3})\.){0,4}(0[xX][0-9a-fA-F]{1,8}|[0-9]{1,10}|[0-9a-fA-FxX.]{0,3})|.{0,12}"
        ) {
            proptest::prop_assert_eq!(parse_ipv4_loose(&text), parse_ipv4_as_the_library_matches(&text));
        }
    }

    #[test]
    fn ipv4_spellings() {
        assert_eq!(parse_ipv4_loose("127.0.0.1"), Some([127, 0, 0, 1]));
        assert_eq!(parse_ipv4_loose("0x7f.1"), Some([127, 0, 0, 1]));
        assert_eq!(parse_ipv4_loose("0177.0.0.1"), Some([127, 0, 0, 1]));
        assert_eq!(parse_ipv4_loose("2130706433"), Some([127, 0, 0, 1]));
        assert_eq!(parse_ipv4_loose("127.1"), Some([127, 0, 0, 1]));
        assert_eq!(parse_ipv4_loose("10.1.258"), Some([10, 1, 1, 2]));
        assert_eq!(parse_ipv4_loose("08.0.0.1"), None, "8 is not an octal digit");
        assert_eq!(parse_ipv4_loose("256.0.0.1"), None);
        assert_eq!(parse_ipv4_loose("4294967296"), None);
        assert_eq!(parse_ipv4_loose("4294967295"), Some([255, 255, 255, 255]));
        assert_eq!(parse_ipv4_loose("1.16777215"), Some([1, 255, 255, 255]));
        assert_eq!(parse_ipv4_loose("1.16777216"), None, "the last part fills three octets at most");
        assert_eq!(parse_ipv4_loose("1.2.65535"), Some([1, 2, 255, 255]));
        assert_eq!(parse_ipv4_loose("1.2.65536"), None, "the last part fills two octets at most");
        assert_eq!(parse_ipv4_loose("0X7F.0x0.0.01"), Some([127, 0, 0, 1]));
        assert_eq!(parse_ipv4_loose("1.2.3.4.5"), None);
        assert!(is_four_part_decimal("10.0.0.1"));
        assert!(!is_four_part_decimal("010.0.0.1"));
    }

    #[test]
    fn ipv6_spellings() {
        let loopback = Ip::V6 { parts: [0, 0, 0, 0, 0, 0, 0, 1], zone: None };
        assert_eq!(parse_ipv6("::1"), Some(loopback));
        assert_eq!(parse_ipv6("::ffff:127.0.0.1").map(|ip| ip.unmapped()), Some(Ip::V4([127, 0, 0, 1])));
        // The library reads `::a.b.c.d` as IPv4-mapped, not IPv4-compatible.
        assert_eq!(parse_ipv6("::10.0.0.1").map(|ip| ip.range().name), Some("ipv4Mapped"));
        assert_eq!(parse_ipv6("fe80::1%eth0").map(|ip| ip.to_string()), Some("fe80::1%eth0".into()));
        assert_eq!(parse_ipv6("1::2::3"), None);
        assert_eq!(parse_ipv6("12345::1"), None);
        assert_eq!(parse_ipv6("1:2:3:4:5:6:7:8:9"), None);
        assert_eq!(parse_ipv6("64:ff9b::1.2.3.4").map(|ip| ip.to_string()), Some("64:ff9b::102:304".into()));
    }

    #[test]
    fn ranges_in_library_order() {
        let name = |text: &str| parse_any(text).map(|ip| ip.range().name);
        assert_eq!(name("100.100.100.200"), Some("carrierGradeNat"));
        assert_eq!(name("198.19.255.255"), Some("reserved"));
        assert_eq!(name("198.20.0.0"), Some("unicast"));
        assert_eq!(name("2001::1"), Some("teredo"), "teredo comes before the reserved /23");
        assert_eq!(name("2001:10::1"), Some("deprecatedOrchid"));
        assert_eq!(name("2001:db8::1"), Some("reserved"));
        assert_eq!(name("fec0::1"), Some("deprecatedSiteLocal"));
        assert_eq!(parse_any("10.2.3.4").unwrap().range().cidr.as_deref(), Some("10.0.0.0/8"));
    }

    #[test]
    fn prints_rfc5952() {
        assert_eq!(parse_any("fd00:ec2:0:0:0:0:0:254").unwrap().to_string(), "fd00:ec2::254");
        assert_eq!(parse_any("1:0:0:2:0:0:0:3").unwrap().to_string(), "1:0:0:2::3");
        assert_eq!(parse_any("::").unwrap().to_string(), "::");
        assert_eq!(parse_any("1:2:3:4:5:6:7:8").unwrap().to_string(), "1:2:3:4:5:6:7:8");
    }
}
