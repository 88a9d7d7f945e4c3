"""Agreement with humans and the paper's analyses of a stored run (no game is replayed):
human-ranking files, Kendall/Spearman agreement, k-bot subsets, "minus x" ablations,
ranking methods, bootstrap stability, figures, the HTML report and FED meta-evaluation."""
