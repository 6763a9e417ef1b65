//! Doc comments, read as schema `description`s.
use syn::Attribute;

/// The doc comment as a schema `description`.
pub fn doc(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(
                line.strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_owned(),
            );
        }
    }
    // Lines of one paragraph are joined with a space (they were wrapped for
    // the source, not for the model); paragraphs stay apart.
    let mut text = String::new();
    let mut blank = false;
    for line in lines.iter().map(|l| l.trim()) {
        if line.is_empty() {
            blank = !text.is_empty();
        } else {
            if blank {
                text.push_str("\n\n");
            } else if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line);
            blank = false;
        }
    }
    (!text.is_empty()).then_some(text)
}
