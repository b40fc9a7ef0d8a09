{%- for e in enums %}
{%- if e.rust_enum %}
{%- if !e.duplicates.is_empty() %}
impl {{ e.name }} {
{%- for c in e.duplicates %}
    pub const {{ c.rust_name }}: {{ e.name }} = {{ e.name }}::{{ c.value }};
{%- endfor %}
}
{%- endif %}
#[repr({{ e.repr }})]
{%- if e.non_exhaustive %}
#[non_exhaustive]
{%- endif %}
#[derive(Debug, Copy, Clone, Hash, PartialEq, Eq{{ enum_derives }})]
pub enum {{ e.name }} {
{%- for c in e.constants %}
    {{ c.rust_name }} = {{ c.value }},
{%- endfor %}
}
{%- elif e.newtype %}
{%- if e.global %}
{%- for c in e.constants %}
pub const {{ c.rust_name }}: {{ e.name }} = {{ e.name }}({{ c.value }});
{%- endfor %}
{%- else %}
impl {{ e.name }} {
{%- for c in e.constants %}
    pub const {{ c.rust_name }}: {{ e.name }} = {{ e.name }}({{ c.value }});
{%- endfor %}
}
{%- endif %}
{%- if e.bit_ops %}
impl ::core::ops::BitOr<{{ e.name }}> for {{ e.name }} {
    type Output = Self;
    #[inline]
    fn bitor(self, other: Self) -> Self {
        {{ e.name }}(self.0 | other.0)
    }
}
impl ::core::ops::BitOrAssign for {{ e.name }} {
    #[inline]
    fn bitor_assign(&mut self, rhs: {{ e.name }}) {
        self.0 |= rhs.0;
    }
}
impl ::core::ops::BitAnd<{{ e.name }}> for {{ e.name }} {
    type Output = Self;
    #[inline]
    fn bitand(self, other: Self) -> Self {
        {{ e.name }}(self.0 & other.0)
    }
}
impl ::core::ops::BitAndAssign for {{ e.name }} {
    #[inline]
    fn bitand_assign(&mut self, rhs: {{ e.name }}) {
        self.0 &= rhs.0;
    }
}
{%- endif %}
#[repr(transparent)]
#[derive(Copy, Clone, Hash, PartialEq, Eq{{ enum_derives }})]
pub struct {{ e.name }}(pub {{ e.repr }});
impl ::core::fmt::Debug for {{ e.name }} {
    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
        ::cushim_runtime::private::fmt_enum(f, "{{ e.name }}", self.0, &[{% for n in e.names %}({{ n.value }}, "{{ n.name }}"){% if !loop.last %}, {% endif %}{% endfor %}], {{ e.bit_ops }})
    }
}
{%- else %}
{%- for c in e.constants %}
pub const {{ c.rust_name }}: {{ e.name }} = {{ c.value }};
{%- endfor %}
pub type {{ e.name }} = {{ e.repr }};
{%- endif %}
{%- endfor %}
