<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../ui/explore/RunStreamPanel.cpp" line="+30"/>
        <source>Chip colour: the token&apos;s probability</source>
        <translation>色块颜色：该词元的概率</translation>
    </message>
    <message>
        <location filename="../ui/runs/RunsView.cpp" line="+145"/>
        <source>%1 (branch at step %2)</source>
        <translation>%1（在第 %2 步分支）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>strategy %1</source>
        <translation>策略 %1</translation>
    </message>
</context>
<context>
    <name>ReportTables</name>
    <message>
        <location filename="../ui/reports/ReportTables.cpp" line="+67"/>
        <source>%1 [%2, %3]</source>
        <translation>%1 [%2, %3]</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+188"/>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location line="-187"/>
        <source>The strategy&apos;s name (#id appended when two share one); the square is its colour in the charts.</source>
        <translation>策略名称（两个策略同名时附加 #id）；方块是它在图表中的颜色。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runs</source>
        <translation>运行数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Runs recorded with this strategy, branches included.</source>
        <translation>使用此策略记录的运行，包括分支。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mean %1 score of this strategy&apos;s runs over every rater, with its 95% percentile-bootstrap interval (%2 resamples of the ratings) and n, the number of ratings.</source>
        <translation>此策略的运行在所有评分者上的 %1 平均分，附 95% 百分位自助法区间（对评分进行 %2 次重抽样）及 n（评分数）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Bradley–Terry</source>
        <translation>Bradley–Terry</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bradley–Terry: strength on an Elo-like scale (400·log10), mean 1000; ties count half. In brackets the 95% interval from %1 bootstrap resamples of the battles.</source>
        <translation>Bradley–Terry：类 Elo 刻度（400·log10）上的强度，均值 1000；平局计为一半。方括号中为对对战进行 %1 次自助法重抽样得到的 95% 区间。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>BT, length-controlled</source>
        <translation>BT（长度校正）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bradley–Terry with the two outputs&apos; length difference as a covariate (FastChat&apos;s style control): the strength left once longer outputs winning is accounted for. Far below the plain score: the strategy wins by writing longer.</source>
        <translation>以两个输出的长度差为协变量的 Bradley–Terry（FastChat 的风格控制）：扣除“较长输出更易获胜”之后剩下的强度。远低于普通分数：该策略靠写得更长取胜。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Elo</source>
        <translation>Elo</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Online Elo as FastChat computes it (K = 4, start 1000), preferences in the order they were given; unlike Bradley–Terry it depends on that order.</source>
        <translation>按 FastChat 的方式计算的在线 Elo（K = 4，初始 1000），偏好按给出的顺序处理；与 Bradley–Terry 不同，它依赖于该顺序。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Win rate</source>
        <translation>胜率</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>(wins + ties / 2) / battles: a tie or a both-bad verdict counts as half a win for each side. A preference is a battle between every two outputs of its comparison: the chosen one beats each other one.</source>
        <translation>（胜 + 平 / 2）/ 对战数：平局或“都不好”的判定对双方各计半场胜利。一条偏好即其比较中每两个输出之间的一场对战：选中的输出战胜其余每一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean length of the runs in tokens.</source>
        <translation>运行的平均长度（以词元计）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean over runs of exp(−mean ln p) of the chosen tokens under the model&apos;s raw distribution: how surprising the text is to the model.</source>
        <translation>各运行中选中词元在模型原始分布下的 exp(−mean ln p) 的平均值：文本对模型而言有多出乎意料。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean over runs of the mean entropy (nats) of the raw next-token distribution: how uncertain the model was while writing.</source>
        <translation>各运行中原始下一词元分布的平均熵（nats）的平均值：模型在生成时有多不确定。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Distinct-1/2/3</source>
        <translation>Distinct-1/2/3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Distinct-n: unique n-grams / all n-grams over all the strategy&apos;s runs together (Li et al. 2016), for n = 1, 2 and 3; higher means more varied text. Sorts by distinct-2.</source>
        <translation>Distinct-n：将该策略的所有运行合在一起，不重复的 n 元组数 / 全部 n 元组数（Li et al. 2016），n = 1、2、3；越高表示文本越多样。按 distinct-2 排序。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rep-4</source>
        <translation>Rep-4</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean over runs of the share of 4-grams that repeat an earlier 4-gram of the same run: higher means more repetitive text.</source>
        <translation>各运行中重复了同一运行内先前某个 4 元组的 4 元组所占比例的平均值：越高表示文本越重复。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Strategy id %1</source>
        <translation>策略 id %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No %1 ratings for this strategy.</source>
        <translation>此策略没有 %1 评分。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 n=1</source>
        <translation>%1 n=1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: one rating, %2; no interval from a single rating.</source>
        <translation>%1：一个评分，%2；单个评分没有区间。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 n=%2</source>
        <translation>%1 n=%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: mean %2, 95% interval %3 to %4; ratings: %5.</source>
        <translation>%1：均值 %2，95% 区间 %3 至 %4；评分数：%5。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No preferences involve this strategy yet.</source>
        <translation>尚无涉及此策略的偏好。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Bradley–Terry %1; 95% interval %2 to %3.</source>
        <translation>Bradley–Terry %1；95% 区间 %2 至 %3。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Length coefficient of the fit: %1 log-odds per unit of scaled length difference.</source>
        <translation>拟合的长度系数：每单位缩放长度差 %1 的对数几率。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1% of %2 battles</source>
        <translation>%1%（共 %2 场对战）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 / %2 / %3</source>
        <translation>%1 / %2 / %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>distinct-1 %1, distinct-2 %2, distinct-3 %3</source>
        <translation>distinct-1 %1，distinct-2 %2，distinct-3 %3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>1 is perfect agreement, 0 no better than chance, below 0 systematic disagreement; Krippendorff counts 0.8 and above as reliable, 0.667 to 0.8 as tentative.</source>
        <translation>1 表示完全一致，0 表示不比随机好，低于 0 表示系统性不一致；Krippendorff 将 0.8 及以上视为可靠，0.667 至 0.8 视为可初步采信。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A rubric dimension that has ratings.</source>
        <translation>已有评分的评分标准维度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>α ordinal</source>
        <translation>α（序数）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Krippendorff&apos;s α with ordinal distances (only the order of scores matters). %1</source>
        <translation>使用序数距离的 Krippendorff&apos;s α（只有分数的顺序有意义）。%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>α interval</source>
        <translation>α（等距）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Krippendorff&apos;s α with interval distances (squared score differences). %1</source>
        <translation>使用等距距离的 Krippendorff&apos;s α（分数差的平方）。%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+86"/>
        <source>Units</source>
        <translation>单元数</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>Runs with at least two ratings on this dimension: only these can show agreement.</source>
        <translation>在此维度上至少有两条评分的运行：只有这些运行能体现一致性。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pairable</source>
        <translation>可配对数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ratings in those runs.</source>
        <translation>这些运行中的评分数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Raters</source>
        <translation>评分者数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Raters who scored this dimension.</source>
        <translation>为此维度打分的评分者。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>α ordinal 95% CI</source>
        <translation>α（序数）95% 区间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Percentile-bootstrap interval of ordinal α, resampling the runs; below 0.7 (the evaluation guide&apos;s threshold) the scores are not yet reliable.</source>
        <translation>对运行重抽样得到的序数 α 百分位自助法区间；低于 0.7（评估指南的阈值）时分数尚不可靠。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Undefined: no run has two ratings on this dimension, or the scores never vary.</source>
        <translation>未定义：没有运行在此维度上有两条评分，或者分数从未变化。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Rater</source>
        <translation>评分者</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A rater, by name.</source>
        <translation>评分者（按名称）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ratings</source>
        <translation>评分数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rubric scores given (one per run and dimension).</source>
        <translation>给出的评分标准分数（每个运行和维度各一条）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preferences</source>
        <translation>偏好数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pairwise verdicts given (one per comparison).</source>
        <translation>给出的成对判定（每个比较一条）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gold</source>
        <translation>金标准</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Preferences on gold comparisons, whose right answer is known.</source>
        <translation>在金标准比较（正确答案已知）上给出的偏好。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Gold comparisons on which the rater picked the known answer.</source>
        <translation>评分者选中已知答案的金标准比较。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gold accuracy</source>
        <translation>金标准准确率</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Correct / gold answered: a check that the rater reads the outputs.</source>
        <translation>正确数 / 已作答的金标准数：用于检查评分者是否认真阅读了输出。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>α without</source>
        <translation>去除后 α</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean change of ordinal α over the dimensions when this rater is set aside: a rise says the others agree better without them.</source>
        <translation>将此评分者搁置后，各维度序数 α 的平均变化：上升说明没有此人时其他人更一致。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Set aside (with the reason), or suggested for it: below the thresholds under this table. Right-click a rater to set them aside or count them again.</source>
        <translation>已搁置（附原因），或建议搁置：低于本表下方的阈值。右键单击评分者可将其搁置或重新计入。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Arm</source>
        <translation>分组</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The arm&apos;s name; the first is the control. The square is its colour in the chart.</source>
        <translation>分组名称；第一个为对照组。方块是它在图表中的颜色。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The strategy the arm serves.</source>
        <translation>该分组所用的策略。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share</source>
        <translation>流量占比</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The arm&apos;s share of the traffic (its weight over all weights).</source>
        <translation>该分组的流量占比（其权重除以所有权重之和）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Completions served by this arm.</source>
        <translation>由该分组生成的补全数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distinct users (or X-Experiment-Unit values; a request without either is its own unit).</source>
        <translation>不同用户数（或 X-Experiment-Unit 值；两者皆无的请求自成一个单元）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Feedback</source>
        <translation>反馈数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Feedbacks on this arm&apos;s completions.</source>
        <translation>对该分组补全的反馈数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thumbs up</source>
        <translation>点赞率</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean score</source>
        <translation>平均分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of thumbs up, with its 95% interval (normal approximation).</source>
        <translation>点赞所占比例及其 95% 区间（正态近似）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean score (1 to 5), with its 95% interval (normal approximation).</source>
        <translation>平均分（1 至 5）及其 95% 区间（正态近似）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Δ vs control</source>
        <translation>与对照组之差</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The difference to the control with its 95% confidence sequence: valid at every look, however often the experiment is read (mixture SPRT).</source>
        <translation>与对照组的差值及其 95% 置信序列：无论查看实验多少次，每次查看都有效（混合 SPRT）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>p (always valid)</source>
        <translation>p（始终有效）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The smallest 1/Λ of the mixture SPRT so far: below α (0.05, divided among the arms) the test decides.</source>
        <translation>混合 SPRT 迄今最小的 1/Λ：低于 α（0.05，按分组数分摊）时检验作出判定。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Latency ms</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean time from request to the arm&apos;s completion.</source>
        <translation>从请求到该分组补全完成的平均时间。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean completion tokens.</source>
        <translation>补全的平均词元数。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 (control)</source>
        <translation>%1（对照）</translation>
    </message>
    <message>
        <location line="-63"/>
        <source>s / item</source>
        <translation>秒 / 条</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Median seconds between the rater&apos;s consecutive answers (breaks over 30 minutes left out).</source>
        <translation>评分者相邻两次作答之间的秒数中位数（超过 30 分钟的间隔视为休息，不计入）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Same in a row</source>
        <translation>连续相同</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Share of rated runs given exactly the scores of the run rated just before (straight-lining).</source>
        <translation>与紧邻上一个运行打分完全相同的已评分运行所占比例（直线作答）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This rater has answered no gold comparison.</source>
        <translation>此评分者尚未回答任何金标准比较。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Undefined: without this rater no dimension has two raters on a run.</source>
        <translation>未定义：没有此评分者时，没有任何维度在某个运行上有两名评分者。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>set aside</source>
        <translation>已搁置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>suggested</source>
        <translation>建议搁置</translation>
    </message>
</context>
<context>
    <name>SaveFileDialog</name>
    <message>
        <location filename="../ui/SaveFileDialog.cpp" line="+19"/>
        <source>%1 is the open run store; choose another file.</source>
        <translation>%1 是当前打开的运行存储；请选择其他文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is a file SQLite keeps for the open run store (its %2 file, which holds saved runs); choose another file.</source>
        <translation>%1 是 SQLite 为当前打开的运行存储保留的文件（其 %2 文件，存有已保存的运行）；请选择其他文件。</translation>
    </message>
</context>
<context>
    <name>SetupWords</name>
    <message>
        <location filename="../ui/runs/RunSetupText.cpp" line="+18"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>1 thread</source>
        <translation>1 个线程</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 threads</source>
        <translation>%1 个线程</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+13"/>
        <source>fast math</source>
        <translation>快速数学</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>compute dtype</source>
        <translation>计算数据类型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>kernel path</source>
        <translation>内核路径</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>swb</name>
    <message>
        <location filename="../ui/explore/DistributionModel.cpp" line="+20"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>top-k = %1</source>
        <translation>top-k = %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>top-p %1: %n token(s), %2% of the p it got</source>
        <translation>
            <numerusform>top-p %1：%n 个词元，占其所得 p 的 %2%</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>min-p %1: threshold p ≥ %2, %n token(s)</source>
        <translation>
            <numerusform>min-p %1：阈值 p ≥ %2，%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>min-p %1: %n token(s)</source>
        <translation>
            <numerusform>min-p %1：%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>typical %1: %n token(s), %2% of the p it got</source>
        <translation>
            <numerusform>typical %1：%n 个词元，占其所得 p 的 %2%</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1 %2: %n token(s)</source>
        <translation>
            <numerusform>%1 %2：%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>top-nσ %1: %n token(s)</source>
        <translation>
            <numerusform>top-nσ %1：%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>grammar: %n token(s) allowed, %1% of the p removed</source>
        <translation>
            <numerusform>语法：允许 %n 个词元，去除了 %1% 的 p</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1: %n token(s), %2% of the p it got</source>
        <translation>
            <numerusform>%1：%n 个词元，占其所得 p 的 %2%</numerusform>
        </translation>
    </message>
    <message>
        <location line="+53"/>
        <source>After stage %1 (%2)</source>
        <translation>第 %1 阶段之后（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Would draw “%1”: raw p %2, final p %3, raw rank %4</source>
        <translation>将会抽取“%1”：原始 p %2，最终 p %3，原始排名 %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Drew “%1”: raw p %2, final p %3, raw rank %4</source>
        <translation>抽取了“%1”：原始 p %2，最终 p %3，原始排名 %4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · the grammar refused the model&apos;s top choice “%1” (raw p %2)</source>
        <translation> · 语法拒绝了模型的首选“%1”（原始 p %2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>p after stage %1</source>
        <translation>第 %1 阶段之后的 p</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>p after the chain</source>
        <translation>经过链之后的 p</translation>
    </message>
</context>
<context>
    <name>swb::BeamTreeView</name>
    <message>
        <location filename="../ui/explore/BeamTreeView.cpp" line="+200"/>
        <source>continues</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pruned</source>
        <translation>已剪除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step %1, rank %2: “%3” — cumulative log p %4, %5. Path: %6</source>
        <translation>第 %1 步，第 %2 名：“%3”——累计 log p %4，%5。路径：%6</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> (offered by a forced word)</source>
        <translation>（由强制词提供）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · group %1</source>
        <translation> · 第 %1 组</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>A beam search shows here as it runs</source>
        <translation>束搜索运行时在此显示</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>swb::CampaignPanel</name>
    <message>
        <location filename="../ui/compare/CampaignPanel.cpp" line="+56"/>
        <source>&lt;b&gt;Rating campaign&lt;/b&gt;</source>
        <translation>&lt;b&gt;评分活动&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no campaign yet</source>
        <translation>尚无评分活动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New…</source>
        <translation>新建…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A new campaign over the comparisons in the run store</source>
        <translation>基于运行存储中的比较新建评分活动</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The address to listen on: 127.0.0.1 for this machine only, 0.0.0.0 for every network this machine is on (each rater&apos;s link carries its own unguessable token)</source>
        <translation>监听的地址：127.0.0.1 仅限本机，0.0.0.0 为本机所在的每个网络（每位评分者的链接都带有自己无法猜测的令牌）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The port (any: a free one)</source>
        <translation>端口（任意：一个空闲端口）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+125"/>
        <source>Serve</source>
        <translation>提供服务</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>Serve the campaigns&apos; rating page to raters&apos; browsers until Stop or the window closes</source>
        <translation>向评分者的浏览器提供评分活动的评分页面，直到停止或关闭窗口</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Serve on</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rater</source>
        <translation>评分者</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Answered</source>
        <translation>已作答</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Link</source>
        <translation>链接</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Copy Link</source>
        <translation>复制链接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open in Browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy Every Link</source>
        <translation>复制全部链接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ratings</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Serve on takes an IP address such as 127.0.0.1 or 0.0.0.0, not “%1”.</source>
        <translation>服务地址需要 IP 地址，例如 127.0.0.1 或 0.0.0.0，而不是“%1”。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>There is no campaign to serve yet: create one with New…</source>
        <translation>还没有可提供服务的评分活动：请用“新建…”创建一个</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Serving on %1 (listening on %2). Send each rater their link.</source>
        <translation>正在 %1 上提供服务（监听 %2）。请把各自的链接发给每位评分者。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rating page served on %1.</source>
        <translation>评分页面在 %1 上提供服务。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Rating page no longer served.</source>
        <translation>评分页面已停止服务。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Create a campaign to hand the comparisons to raters.</source>
        <translation>新建一个评分活动，把比较分派给评分者。</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+13"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 of %2 answers; %3 of %4 comparisons fully rated.</source>
        <translation>已作答 %1 / %2；%3 / %4 个比较已评分完毕。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Campaign “%1” created: serve it with Serve (or “swb serve --rating --db %2”) and send each rater their link.</source>
        <translation>已创建评分活动“%1”：用“提供服务”（或“swb serve --rating --db %2”）提供服务，并把各自的链接发给每位评分者。</translation>
    </message>
    <message>
        <location line="-177"/>
        <location line="+152"/>
        <location line="+32"/>
        <source>The run store is not open.</source>
        <translation>运行存储未打开。</translation>
    </message>
    <message>
        <location line="-285"/>
        <source>Deal the comparisons to raters who rate in their browsers: every output gets the planned number of raters, gold questions are mixed in unmarked. Serve it here, or with “swb serve --rating --db FILE”.</source>
        <translation>把比较分发给在浏览器中评分的评分者：每个输出都有计划数量的评分者，金标准问题不加标记地混在其中。可在此处提供服务，或用“swb serve --rating --db FILE”。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Double-click a rater to copy their link; right-click to copy every link</source>
        <translation>双击评分者复制其链接；右键单击复制全部链接</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Copied %n link(s).</source>
        <translation>
            <numerusform>已复制 %n 个链接。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copied %1&apos;s link: %2</source>
        <translation>已复制 %1 的链接：%2</translation>
    </message>
    <message>
        <location line="+194"/>
        <source>There is no rubric named “%1”.</source>
        <translation>没有名为“%1”的评分标准。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>New Rating Campaign</source>
        <translation>新建评分活动</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>ann, bob, cy</source>
        <translation>ann, bob, cy</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>The share of each rater&apos;s items that are gold questions (%n gold comparison(s) in the store)</source>
        <translation>
            <numerusform>每位评分者的条目中黄金题所占的比例（运行存储中有 %n 个黄金比较）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No comparison is marked gold yet: mark some in Compare (Gold) to mix them in.</source>
        <translation>尚无标记为黄金的比较：请先在“比较”中标记（黄金），再将其混入。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>12=high:Fluent, on topic, answers the question
7=low:Repeats itself</source>
        <translation>12=high:流畅、切题、回答了问题
7=low:自我重复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anchor examples shown to raters before they start, one per line: the comparison&apos;s number, its quality (high, medium or low) and the rubric&apos;s guidance for it</source>
        <translation>评分者开始前看到的锚点示例，每行一个：比较编号、其质量（high、medium 或 low）以及评分标准对它的说明</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Raters:</source>
        <translation>评分者(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ratings per &amp;output:</source>
        <translation>每个输出的评分数(&amp;O)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Gold share:</source>
        <translation>金标准比例(&amp;G)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Seed:</source>
        <translation>种子(&amp;S)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>R&amp;ubric:</source>
        <translation>评分标准(&amp;U)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Anchors:</source>
        <translation>锚点(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every comparison in the run store is dealt out, but anchors; those marked gold are mixed in as gold questions.</source>
        <translation>运行存储中除锚点外的每个比较都会被分派；标记为金标准的比较作为金标准问题混入。</translation>
    </message>
</context>
<context>
    <name>swb::ComparePane</name>
    <message>
        <location filename="../ui/compare/ComparePane.cpp" line="+44"/>
        <source>entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Raw entropy of each step (nats)</source>
        <translation>每一步的原始熵（nats）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>entropy unknown: the engine does not give it</source>
        <translation>熵未知：引擎不提供</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Note (optional)</source>
        <translation>备注（可选）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> / %1</source>
        <translation> / %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 score of %2</source>
        <translation>%2 的 %1 分数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 from %2 to %3; type a number or use the arrow keys</source>
        <translation>%1，范围 %2 至 %3；输入数字或使用方向键</translation>
    </message>
</context>
<context>
    <name>swb::CompareView</name>
    <message>
        <location filename="../ui/compare/CompareView.cpp" line="+105"/>
        <source>New comparison</source>
        <translation>新建比较</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Strategies (2 to 4): a preset, a saved name or JSON</source>
        <translation>策略（2 至 4 个）：预设、已保存的名称或 JSON</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a strategy (at most four)</source>
        <translation>添加一个策略（最多四个）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the last strategy (at least two stay)</source>
        <translation>移除最后一个策略（至少保留两个）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>From Explore</source>
        <translation>从探索添加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add the strategy being edited in Explore</source>
        <translation>添加正在探索中编辑的策略</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Prompts, one per line</source>
        <translation>提示词，每行一个</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read prompts from .txt (one per line), .jsonl (a &quot;prompt&quot; field) or .csv (a prompt column)</source>
        <translation>从 .txt（每行一个）、.jsonl（&quot;prompt&quot; 字段）或 .csv（prompt 列）读取提示词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import Prompts</source>
        <translation>导入提示词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt files (*.txt *.jsonl *.csv);;All files (*)</source>
        <translation>提示词文件 (*.txt *.jsonl *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>One prompt per line; a line holding a JSON object with &quot;messages&quot; is a conversation, run through the model&apos;s chat template</source>
        <translation>每行一个提示；包含 &quot;messages&quot; 的 JSON 对象行是一段对话，会经过模型的聊天模板</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Outputs per prompt and strategy; each sample is its own comparison</source>
        <translation>每个提示词和策略的输出数；每个样本各自构成一个比较</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Same seed for every strategy</source>
        <translation>所有策略使用相同种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Independent seed per strategy</source>
        <translation>每个策略使用独立种子</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Blind rating</source>
        <translation>盲评</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide strategy names while rating; panes are labelled A, B, … in a random, recorded order</source>
        <translation>评分时隐藏策略名称；各窗格按随机且会被记录的顺序标为 A、B、…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seeds</source>
        <translation>种子分配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Run Comparison</source>
        <translation>运行比较</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Generate every prompt with every strategy; running the same setup again resumes where it stopped</source>
        <translation>用每个策略为每个提示词生成；再次运行相同设置时会从中断处继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%v of %m runs</source>
        <translation>%v / %m 个运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this comparison: %p%</source>
        <translation>当前比较：%p%</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Rater</source>
        <translation>评分者</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>your name</source>
        <translation>你的名字</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Rubric</source>
        <translation>评分标准</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The dimensions each output is scored on</source>
        <translation>为每个输出打分所用的维度</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit This Rubric…</source>
        <translation>编辑此评分标准…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New Rubric…</source>
        <translation>新建评分标准…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous comparison (Ctrl+PgUp)</source>
        <translation>上一个比较（Ctrl+PgUp）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next comparison (Ctrl+PgDown)</source>
        <translation>下一个比较（Ctrl+PgDown）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next Unrated</source>
        <translation>下一个未评分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The next comparison you have not rated (Ctrl+N)</source>
        <translation>下一个尚未评分的比较（Ctrl+N）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Reveal</source>
        <translation>揭晓</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show which strategy wrote each output (Ctrl+R); available once you gave a preference</source>
        <translation>显示每个输出由哪个策略生成（Ctrl+R）；给出偏好后可用</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+565"/>
        <source>Gold…</source>
        <translation>金标准…</translation>
    </message>
    <message>
        <location line="-564"/>
        <source>Mark this comparison as gold, with the answer raters should give, to measure raters</source>
        <translation>将此比较标记为金标准，并给出评分者应当给出的答案，用于衡量评分者</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Keys: Tab moves between scores, type a score; Ctrl+1…4 prefer A…D, Ctrl+T tie, Ctrl+B both bad; Ctrl+N next unrated, Ctrl+PgUp/PgDown previous/next, Ctrl+R reveal.</source>
        <translation>快捷键：Tab 在分数之间移动，直接输入分数；Ctrl+1…4 偏好 A…D，Ctrl+T 平局，Ctrl+B 都不好；Ctrl+N 下一个未评分，Ctrl+PgUp/PgDown 上一个/下一个，Ctrl+R 揭晓。</translation>
    </message>
    <message numerus="yes">
        <location line="+97"/>
        <source>Imported %n prompt(s) from %1.</source>
        <translation>
            <numerusform>已从 %1 导入 %n 个提示词。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The run store is not open, so comparisons cannot be saved.</source>
        <translation>运行存储未打开，因此无法保存比较。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Strategy “%1”: %2</source>
        <translation>策略“%1”：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Type at least one prompt, or import a prompt file.</source>
        <translation>请至少输入一个提示词，或导入提示词文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>typed prompts</source>
        <translation>输入的提示词</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Some prompts are conversations, but the loaded model has no chat template; choose one in Explore&apos;s Chat tab.</source>
        <translation>部分提示是对话，但已加载的模型没有聊天模板；请在“探索”的“对话”标签中选择一个。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Prompt %1, sample %2</source>
        <translation>提示词 %1，样本 %2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cancelled after %1 of %2 runs; Run again to resume.</source>
        <translation>已在完成 %1 / %2 个运行后取消；再次运行即可继续。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 runs generated, %2 already done; %3 new comparisons.</source>
        <translation>已生成 %1 个运行，%2 个此前已完成；新增 %3 个比较。</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>There is no rubric “%1”.</source>
        <translation>没有名为“%1”的评分标准。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>my rubric</source>
        <translation>我的评分标准</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>No comparisons yet: set one up on the left and run it, or use swb batch.</source>
        <translation>尚无比较：请在左侧设置并运行一个比较，或使用 swb batch。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Comparison %1 of %2</source>
        <translation>第 %1 个比较，共 %2 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt: %1</source>
        <translation>提示词：%1</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>These outputs were computed differently (%1): they differ by more than their strategies.</source>
        <translation>这些输出的计算方式不同（%1）：它们的差异不只来自策略。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Preference:</source>
        <translation>偏好：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Best:</source>
        <translation>最佳：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 better</source>
        <translation>%1 更好</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Ctrl+%1</source>
        <translation>Ctrl+%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>Tie</source>
        <translation>平局</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+3"/>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Both bad</source>
        <translation>都不好</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>All bad</source>
        <translation>全都不好</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+B</source>
        <translation>Ctrl+B</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Gold: %1</source>
        <translation>金标准：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gold (answer hidden until you prefer)</source>
        <translation>金标（在你给出偏好前隐藏答案）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Type your rater name: your scores are kept and saved under it.</source>
        <translation>请输入评分者名称：你的分数已保留，并将以该名称保存。</translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>Saved %n score(s) typed before your name.</source>
        <translation>
            <numerusform>已保存在输入名称之前给出的 %n 个分数。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Type your rater name first, so your preferences can be told from others&apos;.</source>
        <translation>请先输入评分者名称，以便将你的偏好与他人的区分开。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>0 of %1 rated</source>
        <translation>已评分 0 / %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 of %2 rated</source>
        <translation>已评分 %1 / %2</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Every comparison is rated by %1.</source>
        <translation>所有比较均已由 %1 评分。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Expected: %1 better</source>
        <translation>预期：%1 更好</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Expected: tie</source>
        <translation>预期：平局</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expected: both bad</source>
        <translation>预期：都不好</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not a gold comparison</source>
        <translation>不是金标准比较</translation>
    </message>
</context>
<context>
    <name>swb::ConversationPanel</name>
    <message>
        <location filename="../ui/explore/ConversationPanel.cpp" line="+30"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>System prompt (optional)</source>
        <translation>系统提示（可选）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The conversation so far; select an assistant turn and press Continue from here to drop what came after it</source>
        <translation>到目前为止的对话；选中一个助手轮次并点击“从此处继续”可丢弃其后的内容</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Your message, then Generate (Ctrl+Return)</source>
        <translation>输入你的消息，然后生成（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the chat template: a file, text of your own, or the model&apos;s</source>
        <translation>选择聊天模板：文件、自己的文本或模型自带的模板</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Load from &amp;File…</source>
        <translation>从文件加载(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit Template Text…</source>
        <translation>编辑模板文本(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the &amp;Model&apos;s Own</source>
        <translation>使用模型自带的(&amp;M)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rendered prompt</source>
        <translation>渲染后的提示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the prompt the chat template makes of this conversation, special tokens highlighted</source>
        <translation>显示聊天模板由此对话生成的提示，特殊词元高亮</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Continue from here</source>
        <translation>从此处继续</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Chat template: %1</source>
        <translation>聊天模板：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1; the messages go in as raw text.</source>
        <translation>%1；消息将作为原始文本输入。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Type a message for the assistant to answer.</source>
        <translation>请输入一条消息供助手回答。</translation>
    </message>
    <message numerus="yes">
        <location line="+119"/>
        <source>%n token(s), %1 special</source>
        <translation>
            <numerusform>%n 个词元，其中 %1 个特殊词元</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>swb::DistributionPlot</name>
    <message>
        <location filename="../ui/explore/DistributionPlot.cpp" line="+31"/>
        <source>&amp;Log scale</source>
        <translation>对数刻度(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show probabilities on a logarithmic axis, so the tail is visible.</source>
        <translation>在对数坐标轴上显示概率，以便看清长尾。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the plot as PNG or PDF</source>
        <translation>将图表保存为 PNG 或 PDF</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>“%1” (id %2)
raw p %3
p %4%5</source>
        <translation>“%1”（id %2）
原始 p %3
p %4%5</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>
chosen</source>
        <translation>
已选中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>
cut</source>
        <translation>
已截除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All other tokens
raw mass %1
p %2</source>
        <translation>其余所有词元
原始概率质量 %1
p %2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Generate, then select a step to see its distribution.</source>
        <translation>请先生成，然后选择一步以查看其分布。</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>kept (raw p)</source>
        <translation>保留（原始 p）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut (raw p)</source>
        <translation>截除（原始 p）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>chosen</source>
        <translation>选中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>p after the chain</source>
        <translation>经过链之后的 p</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+7"/>
        <source>others</source>
        <translation>其他</translation>
    </message>
    <message>
        <location line="+52"/>
        <source> (beyond the bars shown)</source>
        <translation>（超出所示柱条的部分）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Branch with “%1” here</source>
        <translation>在此处以“%1”分支</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export as PNG or PDF…</source>
        <translation>导出为 PNG 或 PDF…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Export Plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>swb::DivergenceDialog</name>
    <message>
        <location filename="../ui/explore/DivergenceDialog.cpp" line="+66"/>
        <source>Divergence</source>
        <translation>分歧</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a model sharing A&apos;s tokenizer: its quantization, a fine-tune…, or a server&apos;s http://HOST:PORT/v1</source>
        <translation>与 A 共用分词器的模型：它的量化版、微调版……，或服务器的 http://HOST:PORT/v1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The text both models read, token by token</source>
        <translation>两个模型逐词元读取的文本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Measure</source>
        <translation>测量(&amp;M)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Score every token of the text with both models (Ctrl+Return)</source>
        <translation>用两个模型为文本的每个词元打分（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Model A:</source>
        <translation>模型 A：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model &amp;B:</source>
        <translation>模型 B(&amp;B)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Text:</source>
        <translation>文本(&amp;T)：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Each token shaded by how far B&apos;s distribution before it is from A&apos;s; click one</source>
        <translation>每个词元按其之前 B 的分布与 A 的分布相差多远着色；点击一个词元</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>At</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>KL</source>
        <translation>KL</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A&apos;s top</source>
        <translation>A 的首选</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>B&apos;s top</source>
        <translation>B 的首选</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ln p A</source>
        <translation>ln p A</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ln p B</source>
        <translation>ln p B</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The positions where the two models differ most</source>
        <translation>两个模型差别最大的位置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Click a token to see both distributions before it.</source>
        <translation>点击一个词元，查看它之前的两个分布。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open This Prefix in Explore with Model B</source>
        <translation>在探索中用模型 B 打开此前缀</translation>
    </message>
    <message>
        <location line="+29"/>
        <location line="+147"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="-102"/>
        <source>Choose Model B</source>
        <translation>选择模型 B</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (*.gguf *.bin config.json);;All files (*)</source>
        <translation>模型 (*.gguf *.bin config.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Choose model B: the model to compare with A.</source>
        <translation>请选择模型 B：要与 A 比较的模型。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Type or paste the text both models should read.</source>
        <translation>输入或粘贴两个模型要读取的文本。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Loading the two models…</source>
        <translation>正在加载两个模型…</translation>
    </message>
    <message numerus="yes">
        <location line="+82"/>
        <source>%n token(s) scored.</source>
        <translation>
            <numerusform>已为 %n 个词元打分。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+29"/>
        <source>B is served, known by its top %1 a position: the KL is over those tokens and the rest as one, a lower bound. </source>
        <translation>B 由服务器提供，每个位置只知道它的前 %1 个：KL 按这些词元加其余合为一类计算，是下界。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>KL(A‖B) mean %1, median %2, p99 %3, max %4 nats · same top-1 %5% · perplexity A %6, B %7 (%8%, 95% interval %9% to %10%)</source>
        <translation>KL(A‖B) 均值 %1，中位数 %2，p99 %3，最大 %4 nats · 首选相同 %5% · 困惑度 A %6，B %7（%8%，95% 区间 %9% 至 %10%）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Shade: </source>
        <translation>着色：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> nats (darkest at the 99th percentile and past it)</source>
        <translation> nats（第 99 百分位及以上最深）</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Before token %1 &apos;%2&apos;: KL %3 nats; A&apos;s top &apos;%4&apos;, B&apos;s top &apos;%5&apos;</source>
        <translation>词元 %1“%2”之前：KL %3 nats；A 的首选“%4”，B 的首选“%5”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>B&apos;s bars: its top %1 as the server gave them (none where it did not list the token)</source>
        <translation>B 的柱：服务器给出的前 %1 个（未列出的词元没有柱）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Under %1: A keeps %2 tokens, B %3, %4 of them the same (faded bars: cut)</source>
        <translation>在 %1 下：A 保留 %2 个词元，B 保留 %3 个，其中 %4 个相同（淡色柱：被截断）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>swb::ExperimentChart</name>
    <message>
        <location filename="../ui/reports/ExperimentsPanel.cpp" line="+62"/>
        <source>Feedback over time</source>
        <translation>反馈随时间变化</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+6"/>
        <source>No feedback yet.</source>
        <translation>尚无反馈。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Feedbacks</source>
        <translation>反馈数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of thumbs up</source>
        <translation>点赞比例</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mean score</source>
        <translation>平均分</translation>
    </message>
</context>
<context>
    <name>swb::ExperimentsPanel</name>
    <message>
        <location line="-71"/>
        <source>Waiting for at least 10 feedbacks per arm.</source>
        <translation>正在等待每个分组至少 10 条反馈。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No difference yet, and none observed so far.</source>
        <translation>尚无差异，目前也未观察到差异。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No difference yet: about %1 more feedbacks for 80% power at the observed effect.</source>
        <translation>尚无差异：按观察到的效应，约还需 %1 条反馈才能达到 80% 的检验效能。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Decided: %1 is better (always-valid p = %2).</source>
        <translation>已判定：%1 更好（始终有效 p = %2）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stopped without a decision.</source>
        <translation>已停止，未作判定。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped: %1 won.</source>
        <translation>已停止：%1 胜出。</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Online experiments</source>
        <translation>在线实验</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The experiments swb serve ran on this run store, newest first.</source>
        <translation>swb serve 在此运行存储上进行的实验，最新的在前。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The mixture sequential probability ratio test of each arm against the control: its p-value and confidence sequence stay valid however often the experiment is read.</source>
        <translation>每个分组对照组的混合序贯概率比检验：无论查看实验多少次，其 p 值和置信序列都保持有效。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Double-click an arm to open its newest run in Explore; right-click for its newest runs.</source>
        <translation>双击分组可在探索中打开其最新运行；右键单击可查看其最新的若干运行。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Open Run %1 in Explore</source>
        <translation>在探索中打开运行 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This arm has served no run yet</source>
        <translation>该分组尚未生成任何运行</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 (running)</source>
        <translation>%1（进行中）</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>No experiment.</source>
        <translation>没有实验。</translation>
    </message>
</context>
<context>
    <name>swb::ExploreView</name>
    <message>
        <location filename="../ui/explore/ExploreView.cpp" line="+82"/>
        <source>%1 (%2 stays loaded.)</source>
        <translation>%1（%2 仍保持加载。）</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Cannot replay this step: %1</source>
        <translation>无法重放这一步：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Model loading cancelled.</source>
        <translation>已取消模型加载。</translation>
    </message>
    <message>
        <location line="+172"/>
        <source>Loaded %1 (the cancel came after it had finished).</source>
        <translation>已加载 %1（取消请求到达时加载已完成）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Loaded %1.</source>
        <translation>已加载 %1。</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Generating…</source>
        <translation>正在生成…</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>0 / %n token(s)</source>
        <translation>
            <numerusform>0 / %n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Beam search: the tree above shows every step&apos;s beams; click a node for its path.</source>
        <translation>束搜索：上方的树显示每一步的束；点击节点查看其路径。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Beam search…</source>
        <translation>束搜索…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Beam search: step %1 / %2</source>
        <translation>束搜索：第 %1 / %2 步</translation>
    </message>
    <message>
        <location line="+134"/>
        <source>Edit and Continue</source>
        <translation>编辑并继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The run&apos;s text from step %1 on. Edit it; generation continues after it as a branch of run %2.</source>
        <translation>该运行从第 %1 步起的文本。编辑后，生成将在其后继续，作为运行 %2 的一个分支。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Replaying needs a finished, saved run.</source>
        <translation>重放需要一个已完成并已保存的运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This run came from another model; open that model to replay it.</source>
        <translation>此运行来自另一个模型；请打开该模型后再重放。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>A replay compares sampled runs; the editor holds a beam search.</source>
        <translation>重放用于比较采样运行；编辑器中是束搜索。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A remote engine renders conversations itself: a reply cannot be continued from a token there. Branch from a raw prompt&apos;s run instead.</source>
        <translation>远程引擎自己渲染对话：无法从某个词元处继续其回复。请从原始提示词的运行中分支。</translation>
    </message>
    <message>
        <location line="-72"/>
        <source>The engine did not say this token&apos;s text, so the branch cannot be sent as text.</source>
        <translation>引擎没有给出这个词元的文本，因此无法以文本形式发送分支。</translation>
    </message>
    <message numerus="yes">
        <location line="+113"/>
        <source>%1 · %n token(s) · %2 · computed with %3</source>
        <translation>
            <numerusform>%1 · %n 个词元 · %2 · 计算方式：%3</numerusform>
        </translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Loop remedy</source>
        <translation>循环补救</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The editor holds the run&apos;s strategy with the remedy; the what-if at the selected step shows what it would draw. Undo (Ctrl+Z) brings back the strategy before.</source>
        <translation>编辑器现在是该运行的策略加上补救措施；所选步骤的假设分析会显示它将抽取什么。撤销（Ctrl+Z）可恢复之前的策略。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Generate or open a run first: the probe follows a token through a finished run.</source>
        <translation>请先生成或打开一个运行：探针在已完成的运行中跟踪词元。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The token probe needs the whole distribution at every step; a remote engine gives only its top candidates.</source>
        <translation>词元探针需要每一步的完整分布；远程引擎只提供其排名靠前的候选。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The token probe recomputes the run on its model: open that model first.</source>
        <translation>词元探针会在运行所用的模型上重新计算该运行：请先打开该模型。</translation>
    </message>
    <message numerus="yes">
        <location line="-246"/>
        <source>%n token(s) · %1%2</source>
        <translation>
            <numerusform>%n 个词元 · %1%2</numerusform>
        </translation>
    </message>
    <message>
        <location line="-21"/>
        <source>%1 / %2 tokens</source>
        <translation>%1 / %2 个词元</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>, %1 tok/s</source>
        <translation>，%1 tok/s</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Saved run %1 (%2 tokens, finished: %3).</source>
        <translation>已保存运行 %1（%2 个词元，结束原因：%3）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The run was not saved: %1</source>
        <translation>运行未保存：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Branching needs a finished, saved run.</source>
        <translation>分支需要一个已完成并已保存的运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This run came from another model; open that model to branch from it.</source>
        <translation>此运行来自另一个模型；请打开该模型以从中分支。</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Run %1, branch of run %2 at step %3</source>
        <translation>运行 %1，运行 %2 在第 %3 步的分支</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Run %1 came from a model that is not loaded: its stored trace is shown, and what-if replay and branching need that model.</source>
        <translation>运行 %1 来自一个未加载的模型：此处显示其已存储的轨迹，而假设重放和分支需要该模型。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Open a model here first: the comparison reads both models&apos; whole distributions.</source>
        <translation>请先在此打开一个模型：比较需要读取两个模型的完整分布。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Strategy of run %1</source>
        <translation>运行 %1 的策略</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The editor now holds the strategy of run %1; Undo (Ctrl+Z) brings back the one you were editing.</source>
        <translation>编辑器现在显示运行 %1 的策略；撤销（Ctrl+Z）可恢复你之前编辑的策略。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Select a token to see its step.</source>
        <translation>选择一个词元以查看其所在的步。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>This run was deleted; it is shown until you generate or open another.</source>
        <translation>此运行已被删除；在您生成或打开其他运行之前仍会显示。</translation>
    </message>
</context>
<context>
    <name>swb::InferenceSession</name>
    <message>
        <location filename="../ui/InferenceSession.cpp" line="+54"/>
        <source>Wait for %1 to finish (or stop it) before opening another model.</source>
        <translation>请等待%1结束（或停止它）后再打开另一个模型。</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>The server applies its own chat template; the messages are sent as they are.</source>
        <translation>服务器使用自己的聊天模板；消息按原样发送。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>your template</source>
        <translation>你的模板</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>This model has no chat template</source>
        <translation>此模型没有聊天模板</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Explore&apos;s generation</source>
        <translation>探索页的生成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the running comparison</source>
        <translation>正在运行的比较</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the running sweep</source>
        <translation>正在运行的扫描</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Wait for %1 to finish (or stop it): the model does one job at a time.</source>
        <translation>请等待%1结束（或停止它）：模型一次只做一项工作。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wait for the model to load.</source>
        <translation>请等待模型加载完成。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a model first (Explore&apos;s model bar).</source>
        <translation>请先打开一个模型（探索页的模型栏）。</translation>
    </message>
</context>
<context>
    <name>swb::InferenceWorker</name>
    <message>
        <location filename="../ui/InferenceWorker.cpp" line="+62"/>
        <location line="+11"/>
        <source>Loading the model was cancelled.</source>
        <translation>模型加载已取消。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The tokenizer has %1 tokens but the model %2 only %3.</source>
        <translation>分词器有 %1 个词元，但模型 %2 只有 %3 个。</translation>
    </message>
    <message>
        <location line="+55"/>
        <location line="+28"/>
        <location line="+63"/>
        <location line="+44"/>
        <location line="+23"/>
        <location line="+30"/>
        <source>No model is loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <location line="-164"/>
        <source>A remote engine does not search beams here.</source>
        <translation>远程引擎不在此处进行束搜索。</translation>
    </message>
    <message>
        <location line="+109"/>
        <source>The token probe needs the whole distribution at every step; a remote engine gives only its top candidates.</source>
        <translation>词元探针需要每一步的完整分布；远程引擎只提供其排名靠前的候选。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The run has no steps to probe.</source>
        <translation>该运行没有可探测的步骤。</translation>
    </message>
</context>
<context>
    <name>swb::IntervalBarChart</name>
    <message>
        <location filename="../ui/reports/IntervalBarChart.cpp" line="+104"/>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
</context>
<context>
    <name>swb::MainWindow</name>
    <message>
        <location filename="../ui/MainWindow.cpp" line="+37"/>
        <source>Sampling Workbench</source>
        <translation>采样工作台</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The run store cannot be used, so runs will not be saved: %1</source>
        <translation>无法使用运行存储，因此运行将不会被保存：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Explore</source>
        <translation>探索(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>S&amp;weep</source>
        <translation>扫描(&amp;W)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Runs</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Re&amp;ports</source>
        <translation>报告(&amp;P)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Generation</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Sampling Workbench</source>
        <translation>关于采样工作台(&amp;A)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>About Sampling Workbench</source>
        <translation>关于采样工作台</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;Sampling Workbench %1&lt;/h3&gt;&lt;p&gt;Watch every decoding step of a real language model: the whole next-token distribution, each sampler&apos;s cut and the token drawn. Compare strategies side by side and rate them blind.&lt;/p&gt;&lt;p&gt;MIT licence.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;采样工作台 %1&lt;/h3&gt;&lt;p&gt;观察真实语言模型的每一个解码步：完整的下一词元分布、每个采样器的截断以及抽取的词元。并排比较策略，并对其进行盲评。&lt;/p&gt;&lt;p&gt;MIT 许可证。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>swb::MessageBar</name>
    <message>
        <location filename="../ui/MessageBar.cpp" line="+24"/>
        <source>Close this message</source>
        <translation>关闭此消息</translation>
    </message>
</context>
<context>
    <name>swb::ModelBar</name>
    <message>
        <location filename="../ui/explore/ModelBar.cpp" line="+67"/>
        <location line="+374"/>
        <source>No model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location line="-362"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open a Hugging Face folder, a .gguf file or a llama2.c .bin checkpoint (or drop one on the window)</source>
        <translation>打开 Hugging Face 文件夹、.gguf 文件或 llama2.c .bin 检查点（也可将其拖放到窗口上）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where the model runs; CUDA needs a CUDA build of libtorch (falls back to the CPU with a warning)</source>
        <translation>模型运行的位置；CUDA 需要 CUDA 版本的 libtorch（否则会回退到 CPU 并给出警告）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The dtype the model computes in</source>
        <translation>模型计算所用的 dtype</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+315"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="-314"/>
        <source>threads </source>
        <translation>线程 </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Fast math</source>
        <translation>快速计算</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quantized weights take activations rounded to 8 bits, as llama.cpp computes them: faster, but probabilities move by up to about 0.01. Off, every product is exact float32 arithmetic (within 1e-4 of a float64 computation).</source>
        <translation>量化权重使用舍入到 8 位的激活值，与 llama.cpp 的计算方式相同：更快，但概率最多会偏移约 0.01。关闭时，每个乘积都是精确的 float32 运算（与 float64 计算相差不超过 1e-4）。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Tokenizer…</source>
        <translation>分词器(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+240"/>
        <source>Choose the tokenizer file (tok.bin) of this llama2.c checkpoint</source>
        <translation>选择此 llama2.c 检查点的分词器文件（tok.bin）</translation>
    </message>
    <message>
        <location line="-207"/>
        <source>Loading cancelled.</source>
        <translation>已取消加载。</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Open F&amp;older…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>OpenAI-compatible &amp;Server…</source>
        <translation>OpenAI 兼容服务器(&amp;S)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quantize This Model…</source>
        <translation>量化此模型(&amp;Q)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare &amp;With Another Model…</source>
        <translation>与另一个模型比较(&amp;W)…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>OpenAI-compatible Server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>swb serve, llama.cpp&apos;s server, vLLM or any server with /v1/completions. The engine samples; each token comes with its top-20 log-probabilities, and what-if replays only those. The key is kept until the app quits, never saved.</source>
        <translation>swb serve、llama.cpp 的服务器、vLLM 或任何提供 /v1/completions 的服务器。由引擎采样；每个词元附带其前 20 个对数概率，假设分析只重放这些。密钥保留到应用退出，从不保存。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>An address starts with http:// or https://, e.g. http://127.0.0.1:8080/v1.</source>
        <translation>地址以 http:// 或 https:// 开头，例如 http://127.0.0.1:8080/v1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Models (*.gguf *.bin config.json *.safetensors);;All files (*)</source>
        <translation>模型 (*.gguf *.bin config.json *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+11"/>
        <source>Choose the Tokenizer of %1</source>
        <translation>选择 %1 的分词器</translation>
    </message>
    <message>
        <location line="-10"/>
        <location line="+11"/>
        <source>llama2.c tokenizers (*.bin);;All files (*)</source>
        <translation>llama2.c 分词器 (*.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Where another model sharing this one&apos;s tokenizer parts from it on a text, token by token</source>
        <translation>与此模型共用分词器的另一个模型在一段文本上逐词元地与它分歧的位置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a model here first (a served one reports no whole distributions)</source>
        <translation>请先在此打开一个模型（服务端模型不提供完整分布）</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Tokenizer: %1
Choose another</source>
        <translation>分词器：%1
选择其他</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 · the engine samples; top-20 log-probabilities per token</source>
        <translation>%1 · 由引擎采样；每个词元前 20 个对数概率</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>auto: %n</source>
        <translation>
            <numerusform>自动：%n</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU threads for the model: %1 now (%2). Auto takes the CPUs this process may use, and one for a model too small to split.</source>
        <translation>模型使用的 CPU 线程：当前 %1（%2）。自动模式使用本进程可用的 CPU 数，模型太小不值得拆分时只用一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>chosen automatically</source>
        <translation>自动选择</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>set here</source>
        <translation>在此设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 as stored, FAST MATH: 8-bit activations</source>
        <translation>%1 按原样存储，快速计算：8 位激活值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 as stored, f32 arithmetic</source>
        <translation>%1 按存储格式，f32 运算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · %2M parameters · %3 · %4 · context %5 · vocabulary %6</source>
        <translation>%1 · %2M 参数 · %3 · %4 · 上下文 %5 · 词表 %6</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 not loaded</source>
        <translation>%1 未加载</translation>
    </message>
    <message>
        <location line="-208"/>
        <source>Open &amp;File…</source>
        <translation>打开文件(&amp;F)…</translation>
    </message>
    <message>
        <location line="-128"/>
        <source>CPU threads for the model (auto: the CPUs this process may use; one for a model too small to split)</source>
        <translation>模型使用的 CPU 线程（自动：本进程可用的 CPU 数；模型太小不值得拆分时为一个）</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>&amp;Bundled Demo Model</source>
        <translation>内置演示模型(&amp;B)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Recent</source>
        <translation>最近使用</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Open Model Folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open Model File</source>
        <translation>打开模型文件</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Make a quantized GGUF of %1 with one of llama.cpp&apos;s recipes</source>
        <translation>用 llama.cpp 的一种配方为 %1 生成量化的 GGUF</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quantizing starts from a float model (a GGUF file or a Hugging Face folder; f32, f16 or bf16): open one first</source>
        <translation>量化需从浮点模型开始（GGUF 文件或 Hugging Face 文件夹；f32、f16 或 bf16）：请先打开一个</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Layer %1 of %2</source>
        <translation>第 %1 层，共 %2 层</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
</context>
<context>
    <name>swb::PromptPanel</name>
    <message>
        <location filename="../ui/explore/PromptPanel.cpp" line="+30"/>
        <source>Type a prompt, then Generate (Ctrl+Return)</source>
        <translation>输入提示词，然后生成（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+97"/>
        <source>Chat Template</source>
        <translation>聊天模板</translation>
    </message>
    <message>
        <location line="-96"/>
        <source>Chat templates (*.jinja *.json);;All files (*)</source>
        <translation>聊天模板 (*.jinja *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Prompt</source>
        <translation>提示(&amp;P)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;hat</source>
        <translation>对话(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A raw prompt, continued as it is</source>
        <translation>原始提示，按原样续写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A conversation, rendered with the model&apos;s chat template; the model writes the assistant&apos;s next turn</source>
        <translation>一段对话，用模型的聊天模板渲染；模型写出助手的下一轮</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>max </source>
        <translation>最多 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+9"/>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Generate from the prompt with this strategy (Ctrl+Return)</source>
        <translation>使用此策略根据提示词生成（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+9"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Stop generating (Esc)</source>
        <translation>停止生成（Esc）</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The context holds %1 tokens, the prompt&apos;s included: the run ends sooner.</source>
        <translation>上下文可容纳 %1 个词元（含提示）：运行会提前结束。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Jinja template; messages, add_generation_prompt, bos_token and eos_token are defined.</source>
        <translation>Jinja 模板；可使用 messages、add_generation_prompt、bos_token 和 eos_token。</translation>
    </message>
</context>
<context>
    <name>swb::QuantizeDialog</name>
    <message>
        <location filename="../ui/explore/QuantizeDialog.cpp" line="+37"/>
        <source>Quantize Model</source>
        <translation>量化模型</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>llama.cpp&apos;s recipes, as llama-quantize names them: the _s, _m and _l mixes give the tensors that matter most (attention values, feed-forward outputs) more bits</source>
        <translation>llama.cpp 的配方，名称与 llama-quantize 相同：_s、_m 和 _l 混合配方给最重要的张量（注意力 V、前馈输出）更多位数</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Open the new model when done</source>
        <translation>完成后打开新模型(&amp;O)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Converted as llama.cpp&apos;s convert_hf_to_gguf.py converts a Hugging Face folder, then quantized as its quantizer does (no importance matrix): the same blocks llama-quantize writes.</source>
        <translation>按 llama.cpp 的 convert_hf_to_gguf.py 转换 Hugging Face 文件夹的方式转换，再按其量化器的方式量化（不用重要性矩阵）：与 llama-quantize 写出的块相同。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Quantized as llama.cpp&apos;s quantizer does (no importance matrix): the same blocks llama-quantize writes.</source>
        <translation>按 llama.cpp 量化器的方式量化（无重要性矩阵）：与 llama-quantize 写出的块完全相同。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Quantize</source>
        <translation>量化(&amp;Q)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Recipe:</source>
        <translation>配方(&amp;R)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>O&amp;utput:</source>
        <translation>输出(&amp;U)：</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Most tensors %1 (%2 bits per weight); the output matrix and, in the mixes, some layers get more.</source>
        <translation>大多数张量为 %1（每权重 %2 位）；输出矩阵以及混合配方中的部分层获得更多位数。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Save Quantized Model</source>
        <translation>保存量化模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Name the file to write.</source>
        <translation>请指定要写入的文件。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Wrote %1: %2 MiB, %3 bits per weight.</source>
        <translation>已写入 %1：%2 MiB，每权重 %3 位。</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n tensor(s) fell back to another type (rows not whole blocks).</source>
        <translation>
            <numerusform>%n 个张量改用了其他类型（行长不是整块）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>swb::ReplayDialog</name>
    <message>
        <location filename="../ui/explore/ReplayDialog.cpp" line="+32"/>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Make a &amp;Comparison</source>
        <translation>生成比较(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rate the two outputs blind in Compare</source>
        <translation>在比较中对两个输出进行盲评</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&lt;b&gt;Run %1&lt;/b&gt; · %2</source>
        <translation>&lt;b&gt;运行 %1&lt;/b&gt; · %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Replay, run %1&lt;/b&gt; · %2</source>
        <translation>&lt;b&gt;重放，运行 %1&lt;/b&gt; · %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>its end</source>
        <translation>它的结尾</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>The replay made the same %n token(s): this strategy draws what the run drew.</source>
        <translation>
            <numerusform>重放生成了相同的 %n 个词元：此策略抽取的与原运行相同。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>The same for %n token(s); at step %1 the run has %2 and the replay %3. Highlighted: where each goes from there.</source>
        <translation>
            <numerusform>前 %n 个词元相同；在第 %1 步，原运行为 %2，重放为 %3。高亮部分：各自从那里开始的走向。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot make the comparison: %1</source>
        <translation>无法生成比较：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Comparison %1 made: rate it blind in Compare.</source>
        <translation>已生成比较 %1：请在比较中进行盲评。</translation>
    </message>
</context>
<context>
    <name>swb::ReportChart</name>
    <message>
        <location filename="../ui/reports/ReportChart.cpp" line="+43"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save this chart as a PNG image or a PDF document</source>
        <translation>将此图表保存为 PNG 图像或 PDF 文档</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>Export as PNG or PDF…</source>
        <translation>导出为 PNG 或 PDF…</translation>
    </message>
</context>
<context>
    <name>swb::ReportsView</name>
    <message>
        <location filename="../ui/reports/ReportsView.cpp" line="+111"/>
        <location line="+20"/>
        <source>Cannot write the %1 report to %2: %3.</source>
        <translation>无法将 %1 报告写入 %2：%3。</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Cannot export the %1 report: %2.</source>
        <translation>无法导出 %1 报告：%2。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>One row per run: strategy, seed, prompt, output, length and timings.</source>
        <translation>每个运行一行：策略、种子、提示词、输出、长度和耗时。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per generated token: its probability, rank and the entropy at that step.</source>
        <translation>每个生成的词元一行：其概率、排名及该步的熵。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per rubric score: run, strategy, rater, dimension, score and note.</source>
        <translation>每个评分标准分数一行：运行、策略、评分者、维度、分数和备注。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per pairwise verdict, with the strategy behind each blind label.</source>
        <translation>每个成对判定一行，并附上每个盲评标签背后的策略。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per strategy: the table above, with every interval bound.</source>
        <translation>每个策略一行：即上方的表格，并包含所有区间边界。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per pair of strategies: wins each way, ties, both bad and win rate.</source>
        <translation>每对策略一行：双方各自的胜场、平局、都不好及胜率。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per rated dimension: Krippendorff&apos;s α, ordinal and interval.</source>
        <translation>每个已评分维度一行：Krippendorff&apos;s α（序数和等距）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per rater: ratings, preferences and gold accuracy.</source>
        <translation>每个评分者一行：评分、偏好和金标准准确率。</translation>
    </message>
    <message>
        <location line="+182"/>
        <source>Evaluation report</source>
        <translation>评估报告</translation>
    </message>
    <message>
        <location line="-6"/>
        <location line="+18"/>
        <source>Computing the report…</source>
        <translation>正在计算报告…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compute the report again from the run store, with every rating made since</source>
        <translation>根据运行存储重新计算报告，纳入此后给出的所有评分</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Mean of every rating on the chosen dimension; the whiskers are 95% bootstrap intervals of the mean.</source>
        <translation>所选维度上所有评分的平均值；误差线为均值的 95% 自助法区间。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The rubric dimension to plot</source>
        <translation>要绘制的评分标准维度</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Bradley–Terry score</source>
        <translation>Bradley–Terry 分数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bradley–Terry: strength on an Elo-like scale (400·log10), mean 1000; ties count half. Whiskers: 95% bootstrap intervals; diamonds: online Elo.</source>
        <translation>Bradley–Terry：类 Elo 刻度（400·log10）上的强度，均值 1000；平局计为一半。误差线：95% 自助法区间；菱形：在线 Elo。</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Mean score</source>
        <translation>平均分</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>The runs the report counts: every model&apos;s, or one model&apos;s (with their ratings and the comparisons of its outputs)</source>
        <translation>报告统计的运行：所有模型的，或某一个模型的（连同其评分以及其输出所组成的比较）</translation>
    </message>
    <message>
        <location line="-116"/>
        <source>Set %1 Aside…</source>
        <translation>搁置 %1…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set a Rater Aside</source>
        <translation>搁置评分者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why is %1 set aside? (Recorded with the rater; every report leaves their ratings and preferences out until they are counted again.)</source>
        <translation>为什么搁置 %1？（原因随评分者记录；在重新计入之前，所有报告都不包含其评分和偏好。）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Count %1 Again</source>
        <translation>重新计入 %1</translation>
    </message>
    <message>
        <location line="+142"/>
        <source>Win rate, row against column</source>
        <translation>胜率（行对列）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How often the row&apos;s strategy beat the column&apos;s in preferences, a tie counting half; under the rate: wins–losses–draws.</source>
        <translation>在偏好中行策略战胜列策略的频率，平局计为一半；胜率下方为：胜–负–平。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Agreement, ordinal α</source>
        <translation>一致性（序数 α）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ordinal α per dimension with its 95% bootstrap interval over the runs; the dashed line is the evaluation guide&apos;s threshold, 0.7.</source>
        <translation>各维度的序数 α 及其对运行自助法得到的 95% 区间；虚线为评估指南的阈值 0.7。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Inter-rater agreement (Krippendorff&apos;s α)</source>
        <translation>评分者间一致性（Krippendorff&apos;s α）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Do raters agree on the scores? Runs are the units, raters the coders; hover a column for how to read it.</source>
        <translation>评分者在分数上是否一致？运行为单元，评分者为编码者；将鼠标悬停在列上可查看解读方法。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Raters and gold accuracy</source>
        <translation>评分者与金标准准确率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gold comparisons carry a known right answer; accuracy on them shows a rater is reading.</source>
        <translation>金标准比较带有已知的正确答案；其上的准确率可表明评分者是否在认真阅读。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Suggest setting aside below gold accuracy</source>
        <translation>建议搁置：金标准准确率低于</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>or when α rises by</source>
        <translation>或去掉此人后 α 上升</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>without them</source>
        <translation>及以上时</translation>
    </message>
    <message>
        <location line="-189"/>
        <source>A strategy wins when it beats every other one in an exact sign test of their preferences (ties left out) at p &lt; 0.05 after Holm&apos;s correction across the pairs. Without a winner: about how many more decisive preferences the leader&apos;s closest pair needs for 80% power at its current win share.</source>
        <translation>当某策略在偏好的精确符号检验（不计平局）中，经跨对的 Holm 校正后以 p &lt; 0.05 胜过其他每一个策略时，即为胜者。若无胜者：按当前胜率，领先者最接近的一对还需要约多少条有胜负的偏好才能达到 80% 的检验效能。</translation>
    </message>
    <message>
        <location line="+202"/>
        <source>Export CSV:</source>
        <translation>导出 CSV：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>RFC 4180 CSV, UTF-8, the same files as “swb export”</source>
        <translation>RFC 4180 CSV，UTF-8，与“swb export”生成的文件相同</translation>
    </message>
    <message>
        <location line="-161"/>
        <location line="+616"/>
        <source>Wrote %1.</source>
        <translation>已写入 %1。</translation>
    </message>
    <message>
        <location line="-772"/>
        <source>One row per experiment arm of swb serve: traffic, feedback, the difference to the control and the decision.</source>
        <translation>swb serve 的每个实验分组一行：流量、反馈、与对照组之差及判定。</translation>
    </message>
    <message>
        <location line="+167"/>
        <source>The run store is not open</source>
        <translation>运行存储未打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reports are computed from the run store, which could not be opened; the status bar says why.</source>
        <translation>报告根据运行存储计算，但运行存储无法打开；原因见状态栏。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Reading ratings and preferences from the run store.</source>
        <translation>正在从运行存储读取评分和偏好。</translation>
    </message>
    <message>
        <location line="+175"/>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Steps</source>
        <translation>步</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ratings</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Preferences</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pairwise</source>
        <translation>成对</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Agreement</source>
        <translation>一致性</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Raters</source>
        <translation>评分者</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>All models</source>
        <translation>所有模型</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1 (%n run(s))</source>
        <translation>
            <numerusform>%1（%n 个运行）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Cannot compute the report: %1</source>
        <translation>无法计算报告：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No report</source>
        <translation>无报告</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Strategies: %1</source>
        <translation>策略：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Runs: %1</source>
        <translation>运行：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ratings: %1</source>
        <translation>评分：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Preferences: %1</source>
        <translation>偏好：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Raters: %1 (%2 set aside)</source>
        <translation>评分者：%1（%2 人已搁置）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Raters: %1</source>
        <translation>评分者：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Preferences:&lt;/b&gt; %1.</source>
        <translation>&lt;b&gt;偏好：&lt;/b&gt;%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1:&lt;/b&gt; %2.</source>
        <translation>&lt;b&gt;%1：&lt;/b&gt;%2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Intervals are 95% percentile bootstraps of %1 resamples, seed %2; computed in %3 ms.</source>
        <translation>区间为基于 %1 次重抽样的 95% 百分位自助法区间，种子 %2；计算耗时 %3 ms。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to report yet</source>
        <translation>暂无可报告的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The report shows how raters judged each strategy&apos;s outputs, and the run store holds no rating or preference yet (runs recorded so far: %1).</source>
        <translation>报告展示评分者如何评判各策略的输出，而运行存储中尚无任何评分或偏好（目前已记录的运行：%1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rate outputs blind in the Compare tab, or import scores and verdicts from CSV:</source>
        <translation>在“比较”标签页中对输出进行盲评，或从 CSV 导入分数和判定：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>swb import-ratings --db %1 --csv FILE</source>
        <translation>swb import-ratings --db %1 --csv FILE</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>swb import-preferences --db %1 --csv FILE</source>
        <translation>swb import-preferences --db %1 --csv FILE</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Then press Refresh.</source>
        <translation>然后按“刷新”。</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>No rubric scores yet.
Score outputs in Compare
or run “swb import-ratings”.</source>
        <translation>尚无评分标准分数。
请在“比较”中为输出打分
或运行“swb import-ratings”。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1, %2: mean %3, 95% interval %4 to %5
ratings: %6</source>
        <translation>%1，%2：均值 %3，95% 区间 %4 至 %5
评分数：%6</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 has no %2 ratings.</source>
        <translation>%1 没有 %2 评分。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>mean %1</source>
        <translation>%1 平均分</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 counts again.</source>
        <translation>%1 已重新计入。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is set aside: every figure is computed without their ratings.</source>
        <translation>%1 已搁置：所有数字在计算时都不包含其评分。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>no preferences yet</source>
        <translation>尚无偏好</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no comparison has two strategies rated yet</source>
        <translation>尚无比较中有两个策略都已评分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 beats every other strategy (sign test, Holm-adjusted p ≤ %2)</source>
        <translation>%1 胜过其他所有策略（符号检验，Holm 校正后 p ≤ %2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no clear winner: %1 leads but not clearly against %2 (%3 to %4, Holm-adjusted p = %5); about %6 more decisive battles between them at this win share</source>
        <translation>没有明确的胜者：%1 领先，但对 %2 并不明显（%3 比 %4，Holm 校正后 p = %5）；按当前胜率，二者之间还需约 %6 场有胜负的对战</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no clear winner: %1 leads but not clearly against %2 (%3 to %4, Holm-adjusted p = %5); about %6 more decisive comparisons between them at this win share</source>
        <translation>没有明确的胜者：%1 领先，但对 %2 并不明显（%3 比 %4，Holm 校正后 p = %5）；按当前胜率，二者之间还需约 %6 个分出高下的比较</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no clear winner: %1 leads by Bradley–Terry but does not win more than it loses against every other strategy</source>
        <translation>没有明确的胜者：%1 的 Bradley–Terry 分数领先，但并非对每个其他策略都胜多负少</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no clear winner: %1 leads by mean score but does not win more than it loses against every other strategy</source>
        <translation>没有明确的胜者：%1 的平均分领先，但并非对每个其他策略都胜多负少</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no clear winner: the data do not rank the strategies</source>
        <translation>没有明确的胜者：数据无法为这些策略排序</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: undefined (no run has two ratings, or the scores never vary)</source>
        <translation>%1：未定义（没有运行有两条评分，或分数从未变化）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: α %2, 95% interval %3 to %4
units (runs): %5, raters: %6</source>
        <translation>%1：α %2，95% 区间 %3 至 %4
单元（运行）：%5，评分者：%6</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No agreement yet.
It needs runs rated
by two raters or more.</source>
        <translation>尚无一致性。
需要由两名或更多
评分者评分的运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>α (ordinal)</source>
        <translation>α（序数）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>0.7</source>
        <translation>0.7</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1: Bradley–Terry %2, 95% interval %3 to %4
online Elo %5, win rate %6, battles: %7</source>
        <translation>%1：Bradley–Terry %2，95% 区间 %3 至 %4
在线 Elo %5，胜率 %6，对战数：%7</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 has not been in a preference yet.</source>
        <translation>%1 尚未参与任何偏好。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No preferences yet.
Pick the better output in Compare
or run “swb import-preferences”.</source>
        <translation>尚无偏好。
请在“比较”中选出更好的输出
或运行“swb import-preferences”。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>score (Elo scale)</source>
        <translation>分数（Elo 刻度）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>online Elo</source>
        <translation>在线 Elo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bradley–Terry, 95% interval</source>
        <translation>Bradley–Terry，95% 区间</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No preferences yet.
Win rates appear once outputs
have been compared.</source>
        <translation>尚无偏好。
对输出进行比较后
将显示胜率。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The run store is not open, so there is nothing to export.</source>
        <translation>运行存储未打开，因此没有可导出的内容。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export the %1 Report</source>
        <translation>导出 %1 报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot write the chart to %1: check that the folder exists and can be written to.</source>
        <translation>无法将图表写入 %1：请检查文件夹是否存在且可写。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved “%1” as %2.</source>
        <translation>已将“%1”保存为 %2。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>swb::RubricDialog</name>
    <message>
        <location filename="../ui/compare/RubricDialog.cpp" line="+20"/>
        <source>Rubric</source>
        <translation>评分标准</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Lowest score</source>
        <translation>最低分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Highest score</source>
        <translation>最高分</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Add Dimension</source>
        <translation>添加维度(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>new</source>
        <translation>新维度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove Dimension</source>
        <translation>移除维度(&amp;R)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Scores are whole numbers from the lowest to the highest score.</source>
        <translation>分数为从最低分到最高分之间的整数。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Row %1: the lowest and highest scores must be whole numbers.</source>
        <translation>第 %1 行：最低分和最高分必须是整数。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A rubric needs at least one dimension.</source>
        <translation>评分标准至少需要一个维度。</translation>
    </message>
</context>
<context>
    <name>swb::RunStreamPanel</name>
    <message>
        <location filename="../ui/explore/RunStreamPanel.cpp" line="+20"/>
        <source>&amp;Replay Run with Edited Strategy</source>
        <translation>用编辑后的策略重放运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Decode the shown run again with the strategy in the editor (same model, prompt and seed) and see where the two part (Ctrl+Shift+R)</source>
        <translation>用编辑器中的策略重新解码所显示的运行（相同的模型、提示词和种子），查看两者从哪里开始分岔（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>final p</source>
        <translation>最终 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour tokens by their probability under the model&apos;s raw logits</source>
        <translation>按模型原始 logits 下的概率为词元着色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour tokens by their probability in the distribution the selector drew from</source>
        <translation>按选择器抽取时所用分布中的概率为词元着色</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Replay…</source>
        <translation>重放…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Token probe…</source>
        <translation>词元探针…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why is a token never chosen? Follow one through every step of the run: its raw p and rank, and the stage of the chain that cut it</source>
        <translation>为什么某个词元从未被选中？跟踪它经过运行的每一步：它的原始 p 和排名，以及链中截除它的阶段</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Try a remedy</source>
        <translation>尝试补救</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put a sampler that addresses the loop into the editor and select the step where it can act: the what-if shows whether it breaks the loop there</source>
        <translation>把能处理该循环的采样器放入编辑器，并选中它能起作用的那一步：假设分析会显示它能否在那里打破循环</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>&lt;b&gt;Best&lt;/b&gt; (score %1): %2</source>
        <translation>&lt;b&gt;最佳&lt;/b&gt;（得分 %1）：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1. (score %2): %3</source>
        <translation>%1.（得分 %2）：%3</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>Beam search: %n step(s), best score %1</source>
        <translation>
            <numerusform>束搜索：%n 步，最佳得分 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>&lt;b&gt;Repetition loop&lt;/b&gt;: steps %1–%2 repeat a cycle of %n token(s) %3 times.</source>
        <translation>
            <numerusform>&lt;b&gt;重复循环&lt;/b&gt;：第 %1–%2 步将一个 %n 个词元的周期重复了 %3 次。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n more loop(s) marked on the timeline.</source>
        <translation>
            <numerusform>时间线上还标出了另外 %n 个循环。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Repetition penalty %1 (transformers)</source>
        <translation>重复惩罚 %1（transformers）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>DRY, multiplier %1 (llama.cpp)</source>
        <translation>DRY，乘数 %1（llama.cpp）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No repeated %1-grams (transformers)</source>
        <translation>禁止重复的 %1 元组（transformers）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Temperature %1</source>
        <translation>温度 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sample at temperature %1 instead of greedy</source>
        <translation>以温度 %1 采样，而不是贪心解码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 — what-if at step %2</source>
        <translation>%1 — 在第 %2 步做假设分析</translation>
    </message>
</context>
<context>
    <name>swb::RunsView</name>
    <message>
        <location filename="../ui/runs/RunsView.cpp" line="-109"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finish</source>
        <translation>结束原因</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>tok/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Computed with</source>
        <translation>计算方式</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Filter by prompt, output, strategy, model…</source>
        <translation>按提示、输出、策略、模型筛选…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Open in Explore</source>
        <translation>在探索中打开(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <location line="+33"/>
        <source>%1 of %n run(s)</source>
        <translation>
            <numerusform>%1 / %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The run store is not open.</source>
        <translation>运行存储未打开。</translation>
    </message>
    <message numerus="yes">
        <location line="-20"/>
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+83"/>
        <source>Delete Run</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete run %1 and every branch of it? This cannot be undone.</source>
        <translation>要删除运行 %1 及其所有分支吗？此操作无法撤销。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Deleted run %1.</source>
        <translation>已删除运行 %1。</translation>
    </message>
</context>
<context>
    <name>swb::SamplerTexts</name>
    <message>
        <location filename="../ui/explore/SamplerTexts.cpp" line="+13"/>
        <source>Draws tokens whose probability stays near a target on average: reshapes the distribution around a target that adapts to the probabilities drawn so far.</source>
        <translation>使抽取到的词元概率平均保持在目标附近：围绕一个随已抽取概率自适应调整的目标重塑分布。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Probability the drawn tokens should have on average.</source>
        <translation>抽取词元平均应有的概率。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weight of the history in the running average.</source>
        <translation>滑动平均中历史的权重。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never produces the listed token ids.</source>
        <translation>绝不生成所列的词元 id。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token ids to ban.</source>
        <translation>要禁止的词元 id。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never produces the listed words (as the model&apos;s tokenizer spells them).</source>
        <translation>绝不生成所列的词（按模型分词器的拼写）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Words or phrases to ban.</source>
        <translation>要禁止的词或短语。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allows only tokens that continue a string of a grammar (GBNF, a JSON schema, or any JSON).</source>
        <translation>只允许能延续某个语法所接受字符串的词元（GBNF、JSON schema 或任意 JSON）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A grammar in llama.cpp&apos;s GBNF; its start rule is root.</source>
        <translation>llama.cpp GBNF 格式的语法；起始规则为 root。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A JSON schema the output must follow (converted as llama.cpp converts it).</source>
        <translation>输出必须遵循的 JSON schema（按 llama.cpp 的方式转换）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any JSON value (also what a grammar stage with none of the three allows).</source>
        <translation>任意 JSON 值（三者都未给出的语法阶段也允许这些）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draws the token at random from the final distribution (seeded).</source>
        <translation>从最终分布中随机抽取词元（可设种子）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Always picks the most likely surviving token.</source>
        <translation>总是选择保留下来的最可能的词元。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Penalises tokens that would extend a sequence already repeated in the text.</source>
        <translation>惩罚会延长文本中已重复序列的词元。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Penalty scale; 0 turns DRY off.</source>
        <translation>惩罚系数；0 关闭 DRY。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Growth of the penalty per extra matched token.</source>
        <translation>每多匹配一个词元惩罚的增长倍数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeats this long go unpenalised.</source>
        <translation>不超过此长度的重复不受惩罚。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens of history searched; -1 all, 0 off.</source>
        <translation>搜索的历史词元数；-1 为全部，0 为关闭。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens (ids, or text they contain) that break a repeated sequence.</source>
        <translation>打断重复序列的词元（id，或它们包含的文本）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dynamic temperature: hotter when the model is unsure (high entropy), colder when sure.</source>
        <translation>动态温度：模型不确定（熵高）时更高，确定时更低。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Centre temperature.</source>
        <translation>中心温度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperatures span value ± range.</source>
        <translation>温度范围为 value ± range。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exponent applied to the normalised entropy.</source>
        <translation>作用于归一化熵的指数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Removes tokens whose probability is below epsilon.</source>
        <translation>移除概率低于 epsilon 的词元。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Probability floor.</source>
        <translation>概率下限。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Entropy-dependent floor: removes tokens below min(epsilon, sqrt(epsilon) exp(-H)).</source>
        <translation>随熵变化的下限：移除低于 min(epsilon, sqrt(epsilon) exp(-H)) 的词元。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>epsilon of the eta formula.</source>
        <translation>eta 公式中的 epsilon。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Adds a fixed amount to the logits of chosen tokens.</source>
        <translation>给所选词元的 logit 加上固定值。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Object of &quot;token id&quot;: bias.</source>
        <translation>“词元 id”: 偏置 组成的对象。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keeps tokens at least p times as likely as the most likely token.</source>
        <translation>保留概率至少为最可能词元 p 倍的词元。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fraction of the top probability.</source>
        <translation>最高概率的比例。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mirostat 1.0: adapts a top-k cut step by step to hold the surprise near tau.</source>
        <translation>Mirostat 1.0：逐步调整 top-k 截断，使惊奇度保持在 tau 附近。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Target surprise (bits).</source>
        <translation>目标惊奇度（比特）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learning rate of mu.</source>
        <translation>mu 的学习率。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens used to estimate the Zipf exponent.</source>
        <translation>用于估计 Zipf 指数的词元数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mirostat 2.0: keeps tokens whose surprise is below an adaptive mu.</source>
        <translation>Mirostat 2.0：保留惊奇度低于自适应 mu 的词元。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bans any token that would repeat an n-gram already in the text.</source>
        <translation>禁止任何会重复文本中已有 n 元组的词元。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>n-gram size.</source>
        <translation>n 元组的大小。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Frequency and presence penalties: subtracts count × frequency + presence from the logit of every token already used.</source>
        <translation>频率与存在惩罚：从每个已使用词元的 logit 中减去 次数 × frequency + presence。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Penalty per occurrence.</source>
        <translation>每次出现的惩罚。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Penalty for occurring at all.</source>
        <translation>只要出现过即施加的惩罚。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens of history counted; -1 all, 0 off.</source>
        <translation>计入的历史词元数；-1 为全部，0 为关闭。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Makes every token already in the text less likely: positive logits divided by the penalty, negative ones multiplied.</source>
        <translation>降低文本中已出现的每个词元的可能性：正 logit 除以惩罚值，负 logit 乘以惩罚值。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Above 1 discourages repetition.</source>
        <translation>大于 1 时抑制重复。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Divides the logits by T: below 1 sharpens the distribution, above 1 flattens it; 0 keeps only the most likely token.</source>
        <translation>将 logit 除以 T：小于 1 使分布更尖锐，大于 1 使其更平坦；0 只保留最可能的词元。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Temperature T.</source>
        <translation>温度 T。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-H: keeps the most likely tokens while their entropy terms add up to at most h times the entropy of the top 100.</source>
        <translation>Top-H：保留最可能的词元，直到它们的熵项之和不超过前 100 个词元熵的 h 倍。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the top 100&apos;s entropy.</source>
        <translation>前 100 个词元熵的比例。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keeps the k most likely tokens (and any tied with the k-th).</source>
        <translation>保留 k 个最可能的词元（以及与第 k 个并列的词元）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number of tokens to keep.</source>
        <translation>保留的词元数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keeps tokens whose logit is within n standard deviations of the largest logit.</source>
        <translation>保留 logit 与最大 logit 相差不超过 n 个标准差的词元。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Number of standard deviations.</source>
        <translation>标准差的个数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nucleus sampling: keeps the smallest set of most likely tokens whose mass reaches p.</source>
        <translation>核采样：保留累计概率达到 p 的最小的最可能词元集合。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cumulative probability to keep.</source>
        <translation>保留的累计概率。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Locally typical sampling: keeps tokens whose surprisal is closest to the entropy, up to mass p.</source>
        <translation>局部典型采样：保留惊奇度最接近熵的词元，直到累计概率达到 p。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mass of typical tokens to keep.</source>
        <translation>保留的典型词元的概率总量。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Removes tokens less likely than a times the square of the top probability.</source>
        <translation>移除概率低于 a 乘以最高概率平方的词元。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Multiplier of the squared top probability.</source>
        <translation>最高概率平方的乘数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tail-free sampling: cuts where the sorted probabilities&apos; curvature has added up to z.</source>
        <translation>无尾采样：在排序后概率的曲率累计达到 z 处截断。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of the total curvature kept; 1 is off.</source>
        <translation>保留的总曲率比例；1 为关闭。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quadratic sampling: bends the logits below the top one down by factor times their squared (and, with curve, cubed) distance from it.</source>
        <translation>二次采样：将低于最高值的 logit 按其与最高值距离的平方（配合 curve 时为立方）乘以 factor 向下弯折。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Smoothing factor; 0 is off.</source>
        <translation>平滑系数；0 为关闭。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Smoothing curve; 1 is the plain quadratic.</source>
        <translation>平滑曲线；1 为普通二次。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exclude top choices: sometimes removes all likely tokens but the least likely of them.</source>
        <translation>排除首选：有时移除所有高概率词元，只保留其中概率最低的一个。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Probability a token needs to count as a top choice.</source>
        <translation>词元被视为首选所需的概率。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chance that XTC acts at a step.</source>
        <translation>XTC 在某一步起作用的概率。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never keep fewer than this many tokens.</source>
        <translation>保留的词元数绝不少于此值。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p (confidence)</source>
        <translation>p（置信度）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Degeneration penalty</source>
        <translation>退化惩罚</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chosen</source>
        <translation>选中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Contrastive search: score = (1 − α) · p − α · max cosine similarity to the context; the best is taken.</source>
        <translation>对比搜索：得分 = (1 − α) · p − α · 与上下文的最大余弦相似度；取最高者。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Expert p</source>
        <translation>专家 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Amateur p</source>
        <translation>业余 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Contrastive score</source>
        <translation>对比得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plausible</source>
        <translation>可信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Contrastive decoding: candidates with expert p ≥ %1 (α · max p) are plausible and scored; the chain then acts on the scores.</source>
        <translation>对比解码：专家 p ≥ %1（α · 最大 p）的候选为合理候选并被打分；随后采样链作用于这些得分。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>p with the prompt</source>
        <translation>有提示时的 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p without</source>
        <translation>无提示时的 p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Guided logit</source>
        <translation>引导后的 logit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Guidance: guided logit = g · (log p − log p without) + log p without.</source>
        <translation>引导：引导后的 logit = g · (log p − 无提示的 log p) + 无提示的 log p。</translation>
    </message>
</context>
<context>
    <name>swb::StepDetailsPanel</name>
    <message>
        <location filename="../ui/explore/StepDetailsPanel.cpp" line="+30"/>
        <source>Sampler</source>
        <translation>采样器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kept mass</source>
        <translation>保留的概率质量</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Each stage of the chain at this step; select one to see the distribution after it</source>
        <translation>此步中链的各个阶段；选择其中一个以查看其后的分布</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>&lt;b&gt;Step %1&lt;/b&gt;: the engine drew “%2” — raw p %3, %4 (its top %5 candidates shown, the rest as others)</source>
        <translation>&lt;b&gt;第 %1 步&lt;/b&gt;：引擎抽取了“%2”——原始 p %3，%4（显示其前 %5 个候选，其余归为“其他”）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>final p %1</source>
        <translation>最终 p %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no final p (the engine does not give it)</source>
        <translation>无最终 p（引擎不提供）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>&lt;b&gt;Step %1&lt;/b&gt;: drew “%2” — raw p %3, final p %4, %n survivor(s)</source>
        <translation>
            <numerusform>&lt;b&gt;第 %1 步&lt;/b&gt;：抽取了“%2”— 原始 p %3，最终 p %4，%n 个保留的词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>&lt;br&gt;&lt;span style=&apos;color:#e06c00&apos;&gt;&lt;b&gt;What-if, top-N only&lt;/b&gt; (edited chain, replayed on the candidates the engine gave, the rest unseen): would draw “%1” — final p %2 among them, %n survivor(s)&lt;/span&gt;</source>
        <translation>
            <numerusform>&lt;br&gt;&lt;span style=&apos;color:#e06c00&apos;&gt;&lt;b&gt;假设分析，仅前 N 个&lt;/b&gt;（编辑后的链，在引擎给出的候选上重放，其余不可见）：将会抽取“%1”——在这些候选中的最终 p %2，%n 个幸存者&lt;/span&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>&lt;br&gt;&lt;span style=&apos;color:#e06c00&apos;&gt;&lt;b&gt;What-if&lt;/b&gt; (edited chain, replayed on this step&apos;s logits): would draw “%1” — final p %2, %n survivor(s)&lt;/span&gt;</source>
        <translation>
            <numerusform>&lt;br&gt;&lt;span style=&apos;color:#e06c00&apos;&gt;&lt;b&gt;假设&lt;/b&gt;（编辑后的链，在此步的 logits 上重放）：将抽取“%1”— 最终 p %2，%n 个保留的词元&lt;/span&gt;</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;br&gt;Stored trace (the run&apos;s model is not loaded).</source>
        <translation>&lt;br&gt;已存储的轨迹（该运行的模型未加载）。</translation>
    </message>
</context>
<context>
    <name>swb::StrategyEditor</name>
    <message>
        <location filename="../ui/explore/StrategyEditor.cpp" line="+148"/>
        <source>the list</source>
        <translation>列表</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Preset…</source>
        <translation>预设…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replace the chain with a built-in preset</source>
        <translation>用内置预设替换链</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Preset %1</source>
        <translation>预设 %1</translation>
    </message>
    <message>
        <location line="+136"/>
        <source>Engine order</source>
        <translation>引擎顺序</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reorder the samplers the way an engine applies them (the selector stays last)</source>
        <translation>按引擎应用采样器的顺序重新排列（选择器保持在最后）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>As %1 applies them</source>
        <translation>按 %1 的应用顺序</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Order as %1</source>
        <translation>按 %1 排序</translation>
    </message>
    <message>
        <location line="-136"/>
        <source>Load a strategy saved in the run store</source>
        <translation>加载保存在运行存储中的策略</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Load %1</source>
        <translation>加载 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save this strategy under a name in the run store</source>
        <translation>以一个名称将此策略保存到运行存储中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Other tools…</source>
        <translation>其他工具…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This strategy as llama.cpp, text-generation-webui, SillyTavern or transformers settings, or one of theirs imported</source>
        <translation>将此策略导出为 llama.cpp、text-generation-webui、SillyTavern 或 transformers 的设置，或导入它们的设置</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The seed of the strategy&apos;s random number generator: the same seed draws the same tokens</source>
        <translation>策略随机数生成器的种子：相同的种子会抽取相同的词元</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop strings: generation ends before the first one the output contains (matched across tokens, not shown). Separate them with |; write \n for a newline, \| for a bar.</source>
        <translation>停止字符串：生成在输出包含的第一个停止字符串之前结束（跨词元匹配，不显示）。用 | 分隔；换行写作 
，竖线写作 \|。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A strategy takes at most 16 stop strings.</source>
        <translation>一个策略最多 16 个停止字符串。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Stop strings</source>
        <translation>停止字符串</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New seed</source>
        <translation>新种子</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pick a random seed</source>
        <translation>随机选取一个种子</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Reorder</source>
        <translation>重新排序</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Move the sampler earlier</source>
        <translation>将采样器前移</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move the sampler later</source>
        <translation>将采样器后移</translation>
    </message>
    <message>
        <location line="-115"/>
        <source>C&amp;hain</source>
        <translation>链(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;JSON</source>
        <translation>JSON(&amp;J)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+154"/>
        <source>Seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Saved strategies…</source>
        <translation>已保存的策略…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The run store is not open, so the strategy cannot be saved.</source>
        <translation>运行存储未打开，因此无法保存策略。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Save Strategy</source>
        <translation>保存策略</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Name %1</source>
        <translation>命名为 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saved strategy “%1”.</source>
        <translation>已保存策略“%1”。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Set strategy</source>
        <translation>设置策略</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>JSON: %1 at line %2, column %3.</source>
        <translation>JSON：第 %2 行第 %3 列：%1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>JSON: a strategy is an object ({…}), not an array or a value.</source>
        <translation>JSON：策略必须是对象（{…}），不能是数组或单个值。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Edit JSON</source>
        <translation>编辑 JSON</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Set %1.%2</source>
        <translation>设置 %1.%2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Move %1</source>
        <translation>移动 %1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Select a sampler to edit its parameters.</source>
        <translation>选择一个采样器以编辑其参数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2 &lt;i&gt;(%3)&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2 &lt;i&gt;（%3）&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>%1: write a JSON list or object.</source>
        <translation>%1：请写入一个 JSON 列表或对象。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Load file…</source>
        <translation>载入文件…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply the text to the strategy (Ctrl+Return)</source>
        <translation>将文本应用到策略（Ctrl+Return）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: a JSON schema is an object ({…}).</source>
        <translation>%1：JSON schema 是一个对象（{…}）。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Load a JSON schema</source>
        <translation>载入 JSON schema</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Load a GBNF grammar</source>
        <translation>载入 GBNF 语法</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON schemas (*.json);;All files (*)</source>
        <translation>JSON schema (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GBNF grammars (*.gbnf *.txt);;All files (*)</source>
        <translation>GBNF 语法 (*.gbnf *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is larger than a grammar may be (1 MB).</source>
        <translation>%1 超过了语法的大小上限（1 MB）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Import from %1</source>
        <translation>从 %1 导入</translation>
    </message>
</context>
<context>
    <name>swb::StrategyFormatsDialog</name>
    <message>
        <location filename="../ui/explore/StrategyFormatsDialog.cpp" line="+24"/>
        <source>Other Tools&apos; Settings</source>
        <translation>其他工具的设置</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The editor&apos;s strategy, with every other sampler of the tool switched off:</source>
        <translation>编辑器中的策略（该工具的其他采样器全部关闭）：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Paste the tool&apos;s settings here, or open a file</source>
        <translation>在此粘贴该工具的设置，或打开一个文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open File…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Use in the Editor</source>
        <translation>在编辑器中使用(&amp;U)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fields the settings do not give take the tool&apos;s own defaults:</source>
        <translation>设置中未给出的字段采用该工具自身的默认值：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>E&amp;xport</source>
        <translation>导出(&amp;X)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import</source>
        <translation>导入(&amp;I)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Save Settings</source>
        <translation>保存设置</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Everything translates.</source>
        <translation>全部都能转换。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Does not translate: %1.</source>
        <translation>无法转换：%1。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot import: %1</source>
        <translation>无法导入：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Imported into the editor (Undo brings back the strategy before).</source>
        <translation>已导入编辑器（撤销可恢复之前的策略）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Imported into the editor (Undo brings back the strategy before). Notes: %1.</source>
        <translation>已导入编辑器（撤销可恢复之前的策略）。说明：%1。</translation>
    </message>
</context>
<context>
    <name>swb::SweepHeatmap</name>
    <message>
        <location filename="../ui/sweep/SweepHeatmap.cpp" line="+32"/>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message numerus="yes">
        <location line="+45"/>
        <source>%1
%2: %3 (%n run(s)); click to see the outputs</source>
        <translation>
            <numerusform>%1
%2：%3（%n 个运行）；单击查看输出</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>swb::SweepView</name>
    <message>
        <location filename="../ui/sweep/SweepView.cpp" line="+67"/>
        <source>Mean raw entropy (nats)</source>
        <translation>平均原始熵（nats）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Perplexity of the outputs</source>
        <translation>输出的困惑度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distinct-1</source>
        <translation>Distinct-1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Distinct-2</source>
        <translation>Distinct-2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rep-4 (repeated 4-grams)</source>
        <translation>Rep-4（重复的 4 元组）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean length (tokens)</source>
        <translation>平均长度（词元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of runs in a repetition loop</source>
        <translation>陷入重复循环的运行占比</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>New sweep</source>
        <translation>新建扫描</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The strategy whose parameters the grid changes: Explore&apos;s, a preset, a saved name or JSON</source>
        <translation>网格要改变其参数的策略：探索中的策略、预设、已保存的名称或 JSON</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Explore&apos;s strategy</source>
        <translation>探索中的策略</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Base strategy</source>
        <translation>基础策略(&amp;B)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>values, e.g. 0.5, 0.7, 1.0</source>
        <translation>取值，例如 0.5, 0.7, 1.0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;X parameter</source>
        <translation>X 参数(&amp;X)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>X values</source>
        <translation>X 取值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A second parameter (&amp;Y)</source>
        <translation>第二个参数(&amp;Y)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Y parameter</source>
        <translation>Y 参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Y values</source>
        <translation>Y 取值</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>One prompt per line</source>
        <translation>每行一个提示词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Prompts</source>
        <translation>提示词(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Samples per prompt and cell; sample k uses seed + k − 1 in every cell</source>
        <translation>每个提示词和单元格的样本数；第 k 个样本在每个单元格中使用种子 + k − 1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Run Sweep</source>
        <translation>运行扫描(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run every cell on the loaded model (Ctrl+Return); finished runs are kept, so a cancelled sweep resumes</source>
        <translation>在已加载的模型上运行每个单元格（Ctrl+Return）；已完成的运行会保留，因此取消的扫描可以继续</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open a sweep saved as JSON</source>
        <translation>打开保存为 JSON 的扫描</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save this sweep as JSON (swb sweep --spec reads it)</source>
        <translation>将此扫描保存为 JSON（swb sweep --spec 可读取）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The metrics of every cell as CSV</source>
        <translation>以 CSV 格式导出每个单元格的指标</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%v of %m runs</source>
        <translation>%v / %m 个运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this prompt and sample: %v of %m tokens</source>
        <translation>当前提示词和样本：%v / %m 个词元</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Run a sweep to see a metric of every cell here.</source>
        <translation>运行一次扫描，即可在此查看每个单元格的指标。</translation>
    </message>
    <message>
        <location line="+214"/>
        <source>Click a cell to see its outputs; double-click an output to open it in Explore.</source>
        <translation>单击单元格查看其输出；双击某个输出可在探索中打开。</translation>
    </message>
    <message>
        <location line="-207"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Open Sweep</source>
        <translation>打开扫描</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+6"/>
        <source>Sweep (*.json)</source>
        <translation>扫描 (*.json)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Save Sweep</source>
        <translation>保存扫描</translation>
    </message>
    <message>
        <location line="-135"/>
        <source>Export Sweep Metrics</source>
        <translation>导出扫描指标</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png);;PDF (*.pdf)</source>
        <translation>PNG 图像 (*.png);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <location line="+231"/>
        <source>Base strategy: %1</source>
        <translation>基础策略：%1</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Cannot save the sweep to %1: %2</source>
        <translation>无法将扫描保存到 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved the sweep to %1.</source>
        <translation>已将扫描保存到 %1。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a sweep (a JSON object)</source>
        <translation>不是扫描（应为 JSON 对象）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot open the sweep %1: %2</source>
        <translation>无法打开扫描 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Opened %1. Run it to see its cells (finished runs are found, not made again).</source>
        <translation>已打开 %1。运行它即可查看各单元格（已完成的运行会被找到，不会重新生成）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exported the sweep&apos;s metrics to %1.</source>
        <translation>已将扫描指标导出到 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The run store is not open, so a sweep cannot be saved.</source>
        <translation>运行存储未打开，因此无法保存扫描。</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>Running %n cell(s)…</source>
        <translation>
            <numerusform>正在运行 %n 个单元格…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Cancelled after %1 of %2 runs; Run Sweep again to resume. The map shows the runs made so far.</source>
        <translation>已在 %2 个运行中完成 %1 个后取消；再次运行扫描即可继续。热图显示目前已生成的运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 runs: %2 generated, %3 found in the run store.</source>
        <translation>%1 个运行：新生成 %2 个，在运行存储中找到 %3 个。</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+1"/>
        <source>The sweep stopped: %1</source>
        <translation>扫描已停止：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+33"/>
        <source>%1: %n run(s). Double-click one to open it in Explore.</source>
        <translation>
            <numerusform>%1：%n 个运行。双击其中一个可在探索中打开。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>from token %1, %2 × %n token(s)</source>
        <translation>
            <numerusform>从第 %1 个词元起，%2 × %n 个词元</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>swb::TimelinePlot</name>
    <message>
        <location filename="../ui/explore/TimelinePlot.cpp" line="+28"/>
        <location line="+28"/>
        <location line="+181"/>
        <source>survivors</source>
        <translation>保留的词元</translation>
    </message>
    <message>
        <location line="-208"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+205"/>
        <source>entropy (nats)</source>
        <translation>熵（nats）</translation>
    </message>
    <message>
        <location line="-204"/>
        <location line="+205"/>
        <source>chosen p</source>
        <translation>选中的 p</translation>
    </message>
    <message>
        <location line="-196"/>
        <source>raw entropy</source>
        <translation>原始熵</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>final entropy</source>
        <translation>最终熵</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>chosen raw p</source>
        <translation>选中的原始 p</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>mass removed by grammar</source>
        <translation>语法去除的概率质量</translation>
    </message>
    <message>
        <location line="+183"/>
        <source>entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>nats</source>
        <translation>奈特</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kept</source>
        <translation>保留</translation>
    </message>
</context>
<context>
    <name>swb::TokenProbeDialog</name>
    <message>
        <location filename="../ui/explore/TokenProbeDialog.cpp" line="+35"/>
        <source>Token Probe</source>
        <translation>词元探针</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>One of the selected step&apos;s candidates, a word (as it would appear inside a text), or #id</source>
        <translation>所选步骤的一个候选、一个词（按其在文本中出现的形式）或 #id</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Probe</source>
        <translation>探测(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Token:</source>
        <translation>词元(&amp;T)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+69"/>
        <source>Pick a candidate or type a word, then Probe.</source>
        <translation>选择一个候选或输入一个词，然后点击探测。</translation>
    </message>
    <message>
        <location line="-61"/>
        <location line="+197"/>
        <source>raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <location line="-192"/>
        <location line="+196"/>
        <source>raw rank</source>
        <translation>原始排名</translation>
    </message>
    <message>
        <location line="-192"/>
        <source>step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Drawn</source>
        <translation>抽取的词元</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Raw rank</source>
        <translation>原始排名</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Final p</source>
        <translation>最终 p</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fate</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>%1 is not a token id of this vocabulary.</source>
        <translation>%1 不是此词表中的词元 id。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Type a word or pick a candidate.</source>
        <translation>请输入一个词或选择一个候选。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>“%1” makes no token.</source>
        <translation>“%1”不产生任何词元。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>“%1” is %2 tokens; this probes the first, “%3”.</source>
        <translation>“%1”由 %2 个词元组成；将探测第一个，“%3”。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Probing “%1”…</source>
        <translation>正在探测“%1”…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Token Probe: run %1</source>
        <translation>词元探针：运行 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the run&apos;s model is no longer the loaded one; open it again to probe this run</source>
        <translation>该运行的模型已不是当前加载的模型；请重新打开它以探测此运行</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>drawn</source>
        <translation>被抽取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>survived, not drawn</source>
        <translation>保留但未被抽取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cut by %1 (stage %2)</source>
        <translation>被 %1 截除（第 %2 阶段）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The probe failed: %1</source>
        <translation>探测失败：%1</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>survived the chain</source>
        <translation>通过了链</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cut by the chain</source>
        <translation>被链截除</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 by %2</source>
        <translation>%2 截除 %1 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” (#%2) over %3 steps: drawn at %4, survived the chain without being drawn at %5, cut at %6%7.</source>
        <translation>“%1”（#%2）在 %3 步中：%4 步被抽取，%5 步通过了链但未被抽取，%6 步被截除%7。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Double-click a row to select its step in Explore.</source>
        <translation>双击一行可在探索中选中该步骤。</translation>
    </message>
</context>
<context>
    <name>swb::TokenStreamView</name>
    <message>
        <location filename="../ui/explore/TokenStreamView.cpp" line="+37"/>
        <source>Generated tokens</source>
        <translation>生成的词元</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>Generated tokens appear here, coloured by probability.</source>
        <translation>生成的词元会显示在这里，并按概率着色。</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>&amp;Branch from step %1 with</source>
        <translation>从第 %1 步分支，改选(&amp;B)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>“%1”  raw p %2%3</source>
        <translation>“%1”  原始 p %2%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>  (chosen)</source>
        <translation>  （已选中）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Edit text from here and continue…</source>
        <translation>从此处编辑文本并继续(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Probe a token…</source>
        <translation>探测词元(&amp;P)…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&lt;b&gt;Step %1&lt;/b&gt;: “%2” (id %3)&lt;br&gt;raw p %4 · final p %5 · raw rank %6&lt;br&gt;entropy raw %7 · final %8 nats</source>
        <translation>&lt;b&gt;第 %1 步&lt;/b&gt;：“%2”（id %3）&lt;br&gt;原始 p %4 · 最终 p %5 · 原始排名 %6&lt;br&gt;熵：原始 %7 · 最终 %8 nats</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+1"/>
        <location line="+1"/>
        <location line="+1"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;i&gt;candidate&lt;/i&gt;</source>
        <translation>&lt;i&gt;候选&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;i&gt;raw p&lt;/i&gt;</source>
        <translation>&lt;i&gt;原始 p&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&lt;i&gt;final p&lt;/i&gt;</source>
        <translation>&lt;i&gt;最终 p&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cut</source>
        <translation>已截除</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;i&gt;Right-click to branch with another token, or to edit the text from here.&lt;/i&gt;</source>
        <translation>&lt;i&gt;右键单击可用另一个词元分支，或从此处编辑文本。&lt;/i&gt;</translation>
    </message>
</context>
<context>
    <name>swb::WinRateHeatmap</name>
    <message>
        <location filename="../ui/reports/WinRateHeatmap.cpp" line="+24"/>
        <source>against</source>
        <translation>对阵</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>win rate of row</source>
        <translation>行的胜率</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 and %2 have not met in a preference yet.</source>
        <translation>%1 与 %2 尚未在任何偏好中相遇。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 against %2: win rate %3, battles: %4
%5 won, %6 lost, %7 tied, %8 both bad</source>
        <translation>%1 对阵 %2：胜率 %3，对战数：%4
胜 %5，负 %6，平 %7，都不好 %8</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1
%2–%3–%4</source>
        <translation>%1
%2–%3–%4</translation>
    </message>
</context>
</TS>
