"""How well two rankings agree, and how sure that is: the statistics shared by the
analysis of a run (:mod:`chatmatch.analysis`), the annotations (:mod:`chatmatch.annotate`)
and the validity lab (:mod:`chatmatch.validity`). :mod:`.correlation`: Kendall tau-b,
Spearman rho, Pearson r and their p-values; :mod:`.bootstrap`: bootstrap intervals
(chats resampled within each system, items resampled with their judgements)."""
